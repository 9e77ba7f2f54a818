#include "services/ctl/usage_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/time_util.h"
#include "proto_time.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

const absl::Time kNow = absl::FromUnixSeconds(1767225600);  // 2026-01-01T00:00:00Z
using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

TEST(UsageRequest, FlagsBecomeTheRequest) {
  UsageFlags f;
  f.cluster = "c1";
  f.pod = "train-0";
  f.namespace_ = "ml";
  f.start = "2026-01-01T00:00:00Z";
  f.end = "2026-01-02T00:00:00Z";
  f.resolution = "Minute";
  auto r = UsageRequest(f, kNow);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->cluster(), "c1");
  EXPECT_EQ(r->pod(), "train-0");
  EXPECT_EQ(r->namespace_(), "ml");
  EXPECT_EQ(r->resolution(), v1::MINUTE);
  EXPECT_EQ(FormatRfc3339(FromProtoTimestamp(r->end())), "2026-01-02T00:00:00Z");
}

TEST(UsageRequest, WithoutTimesItIsTheDayBeforeNow) {
  UsageFlags f;
  f.cluster = "c1";
  auto r = UsageRequest(f, kNow);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(FormatRfc3339(FromProtoTimestamp(r->end())), "2026-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(FromProtoTimestamp(r->start())), "2025-12-31T00:00:00Z");
}

TEST(UsageRequest, LastIsALengthUpToNow) {
  UsageFlags f;
  f.cluster = "c1";
  f.last = "6h";
  auto r = UsageRequest(f, kNow);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(FormatRfc3339(FromProtoTimestamp(r->start())), "2025-12-31T18:00:00Z");
  EXPECT_EQ(FormatRfc3339(FromProtoTimestamp(r->end())), "2026-01-01T00:00:00Z");
}

TEST(UsageRequest, BadFlagsAreNamed) {
  UsageFlags f;
  EXPECT_THAT(UsageRequest(f, kNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--cluster")));
  f.cluster = "c1";
  f.resolution = "week";
  EXPECT_THAT(UsageRequest(f, kNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--resolution")));
  f.resolution = "day";
  f.start = "the day before";
  EXPECT_THAT(UsageRequest(f, kNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--start")));
  f.start = "-1d";
  f.last = "6h";
  EXPECT_THAT(UsageRequest(f, kNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--last")));
}

TEST(RenderUsage, TableAndJson) {
  v1::UsageReport report;
  report.set_cluster("c1");
  *report.mutable_start() = ToProtoTimestamp(*ParseRfc3339("t", "2026-01-01T00:00:00Z"));
  *report.mutable_end() = ToProtoTimestamp(*ParseRfc3339("t", "2026-01-01T02:00:00Z"));
  auto* b = report.add_buckets();
  *b->mutable_start() = report.start();
  b->set_util_mean(0.4567);
  b->set_util_max(0.99);
  b->set_memory_used_bytes(int64_t{3} << 30);
  b->set_power_watts(301.25);
  b->set_samples(240);
  b->set_series(2);
  const std::string table = RenderUsage(report, Format::kTable);
  EXPECT_THAT(table, HasSubstr("45.7%")) << table;
  EXPECT_THAT(table, HasSubstr("3.00")) << table;
  EXPECT_THAT(table, HasSubstr("240")) << table;
  const std::string json = RenderUsage(report, Format::kJson);
  EXPECT_THAT(json, HasSubstr("\"utilMean\": 0.4567")) << json;
  EXPECT_THAT(json, HasSubstr("\"samples\": \"240\"")) << json;
}

}  // namespace
}  // namespace fleetcap::ctl

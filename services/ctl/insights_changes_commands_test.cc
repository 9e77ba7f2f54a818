#include "services/ctl/insights_changes_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto_time.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// A Saturday, 10:37:12 UTC.
const absl::Time kNow = absl::FromUnixSeconds(1796467032);

TEST(InsightsChangesRequest, CarriesEveryFlag) {
  InsightsChangesFlags f;
  f.from = "2026-11-24T00:00:00Z";
  f.to = "2026-12-01T00:00:00Z";
  f.team = "vision";
  f.namespace_ = "cv";
  f.top = 7;
  auto request = InsightsChangesRequest(f, kNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(FromProtoTimestamp(request->start()), absl::FromUnixSeconds(1795478400));
  EXPECT_EQ(FromProtoTimestamp(request->end()), absl::FromUnixSeconds(1796083200));
  EXPECT_EQ(request->team(), "vision");
  EXPECT_EQ(request->namespace_(), "cv");
  EXPECT_EQ(request->top(), 7);
}

TEST(InsightsChangesRequest, LastIsTheWholeHoursUpToNow) {
  InsightsChangesFlags f;
  f.last = "7d";
  auto request = InsightsChangesRequest(f, kNow);
  ASSERT_THAT(request, IsOk());
  const absl::Time hour = absl::FromUnixSeconds(1796464800);  // 10:00 UTC
  EXPECT_EQ(FromProtoTimestamp(request->end()), hour);
  EXPECT_EQ(FromProtoTimestamp(request->start()), hour - absl::Hours(24 * 7));
}

TEST(InsightsChangesRequest, RefusesAMissingWindowAndATopOutOfRange) {
  EXPECT_THAT(InsightsChangesRequest({}, kNow), StatusIs(absl::StatusCode::kInvalidArgument));
  InsightsChangesFlags f;
  f.last = "1d";
  for (int64_t top : {int64_t{-1}, int64_t{101}, int64_t{1'000'000'000'000}}) {
    f.top = top;
    EXPECT_THAT(InsightsChangesRequest(f, kNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--top")));
  }
}

}  // namespace
}  // namespace fleetcap::ctl

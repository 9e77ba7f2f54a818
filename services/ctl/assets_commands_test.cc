#include "services/ctl/assets_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/time_util.h"
#include "proto_time.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// Saturday 2026-12-05, 10:37:12 UTC.
const absl::Time kAssetsNow = absl::FromUnixSeconds(1796467032);

std::string Rfc3339(const google::protobuf::Timestamp& t) { return FormatRfc3339(FromProtoTimestamp(t)); }

TEST(AssetsRequest, CarriesEveryFlagAndReadsRelativeTimesToTheHour) {
  AssetsFlags f;
  f.from = "-7d";
  f.group_by = "node";
  f.cluster = "east";
  f.model = "H100-SXM5-80GB";
  f.node = "gpu-node-1";
  f.limit = 1000;
  auto request = AssetsRequest(f, kAssetsNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(Rfc3339(request->start()), "2026-11-28T10:00:00Z");
  EXPECT_EQ(Rfc3339(request->end()), "2026-12-05T10:00:00Z");
  EXPECT_EQ(request->group_by(), "node");
  EXPECT_EQ(request->cluster(), "east");
  EXPECT_EQ(request->model(), "H100-SXM5-80GB");
  EXPECT_EQ(request->node(), "gpu-node-1");
  EXPECT_EQ(request->limit(), 1000);
}

TEST(AssetsRequest, LastIsTheWindowUpToThisHourAndTheDefaultsAreByModelAndTheApisLimit) {
  AssetsFlags f;
  f.last = "30d";
  auto request = AssetsRequest(f, kAssetsNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(Rfc3339(request->start()), "2026-11-05T10:00:00Z");
  EXPECT_EQ(Rfc3339(request->end()), "2026-12-05T10:00:00Z");
  EXPECT_EQ(request->group_by(), "model");
  EXPECT_EQ(request->limit(), 200);
}

TEST(AssetsRequest, RefusesBadFlagsNamingThem) {
  AssetsFlags no_window;
  EXPECT_THAT(AssetsRequest(no_window, kAssetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--from")));
  AssetsFlags f;
  f.last = "7d";
  f.group_by = "team";
  EXPECT_THAT(AssetsRequest(f, kAssetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--group-by")));
  f.group_by = "model";
  for (int64_t limit : {int64_t{0}, int64_t{-1}, int64_t{1001}, INT64_MAX}) {
    f.limit = limit;
    EXPECT_THAT(AssetsRequest(f, kAssetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--limit")))
        << limit;
  }
  f.limit = 1;
  f.from = "-7d";
  EXPECT_THAT(AssetsRequest(f, kAssetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--last")));
}

TEST(DeviceHoldsRequest, NeedsTheClusterAndTheDevice) {
  DeviceHoldsFlags f;
  f.last = "24h";
  EXPECT_THAT(DeviceHoldsRequest(f, kAssetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--cluster")));
  f.cluster = "east";
  EXPECT_THAT(DeviceHoldsRequest(f, kAssetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--device")));
  f.device = "GPU-1";
  auto request = DeviceHoldsRequest(f, kAssetsNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->cluster(), "east");
  EXPECT_EQ(request->device(), "GPU-1");
  EXPECT_EQ(Rfc3339(request->start()), "2026-12-04T10:00:00Z");
  EXPECT_EQ(Rfc3339(request->end()), "2026-12-05T10:00:00Z");
  f.from = "yesterday";
  f.last.clear();
  f.to = "not-a-time";
  EXPECT_THAT(DeviceHoldsRequest(f, kAssetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--to")));
}

}  // namespace
}  // namespace fleetcap::ctl

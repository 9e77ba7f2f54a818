// The fleet's assets over a window (PgCapacityRepository::AssetTimes,
// DeviceHolds) find the holds of each device through holds_by_device,
// never a scan of the whole history of holds: their plans on a database
// seeded with 60 days of holds, for every cluster and for one, over a day
// and over 30 days.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "store/pg_asset_sql.h"
#include "tests/support/hold_history_plans.h"

namespace fleetcap::store {
namespace {

class AssetPlansTest : public testing::HoldHistoryPlansTest {
 protected:
  std::multiset<std::string> AssetTimesPlan(const std::string& cluster, absl::Duration window) {
    return ExplainedPlan(kAssetTimesSql, absl::ToUnixMicros(now_ - window), absl::ToUnixMicros(now_), cluster, "", "",
                         "device");
  }

  std::multiset<std::string> DeviceHoldsPlan(absl::Duration window) {
    return ExplainedPlan(kDeviceHoldsSql, absl::ToUnixMicros(now_ - window), absl::ToUnixMicros(now_), "c1", "d-1",
                         10'001);
  }
};

TEST_F(AssetPlansTest, EachDevicesHoldsAreFoundByItsIndex) {
  for (const std::string cluster : {"", "c1"}) {
    for (const absl::Duration window : {absl::Hours(24), absl::Hours(24 * 30)}) {
      const std::multiset<std::string> plan = AssetTimesPlan(cluster, window);
      const std::string where = absl::StrCat("AssetTimes cluster '", cluster, "' ", absl::FormatDuration(window));
      EXPECT_EQ(plan.count("Seq Scan on holds"), 0u) << where << "\n" << ::testing::PrintToString(plan);
      EXPECT_EQ(plan.count("Bitmap Index Scan (holds_by_device)") + plan.count("Index Scan on holds (holds_by_device)"),
                1u)
          << "one probe per device interval, not one per figure: " << where << "\n"
          << ::testing::PrintToString(plan);
    }
  }
  for (const absl::Duration window : {absl::Hours(24), absl::Hours(24 * 30)}) {
    const std::multiset<std::string> plan = DeviceHoldsPlan(window);
    EXPECT_EQ(plan.count("Seq Scan on holds"), 0u) << ::testing::PrintToString(plan);
    EXPECT_THAT(plan, ::testing::Contains(::testing::HasSubstr("(holds_by_device)"))) << ::testing::PrintToString(plan);
  }
}

}  // namespace
}  // namespace fleetcap::store

#include "store/memory_usage_rollup_repository.h"

#include "store/memory_live_inventory_repository.h"
#include "store/usage_rollup_contract.h"

namespace fleetcap::store {
namespace {

class MemoryUsageRollupTest : public ::testing::Test {
 public:
  UsageWriteRepository& writer() { return usage_; }
  UsageRollupRepository& rollups() { return rollups_; }
  std::vector<UsedMinuteRecord> Usage(const std::string& cluster, absl::Time start, absl::Time end) {
    return rollups_.Usage(cluster, start, end);
  }

 protected:
  MemoryLiveInventoryRepository inventory_;
  MemoryUsageRepository usage_{usage_contract::AtT0(), &inventory_};
  MemoryUsageRollupRepository rollups_{&usage_};
};

FLEETCAP_USAGE_ROLLUP_CONTRACT_TESTS(MemoryUsageRollupTest)

TEST_F(MemoryUsageRollupTest, EveryWindowAskedForIsRecordedInOrder) {
  ASSERT_THAT(rollups().RollUp("c1", usage_rollup_contract::RollupHour(0), usage_rollup_contract::RollupHour(2)),
              testing::IsOk());
  ASSERT_THAT(rollups().RollUp("c2", usage_rollup_contract::RollupHour(1), usage_rollup_contract::RollupHour(1)),
              testing::IsOk());
  using Call = std::tuple<std::string, absl::Time, absl::Time>;
  EXPECT_EQ(rollups_.RollUpCalls(),
            (std::vector<Call>{
                {"c1", usage_rollup_contract::RollupHour(0), usage_rollup_contract::RollupHour(2)},
                {"c2", usage_rollup_contract::RollupHour(1), usage_rollup_contract::RollupHour(1)},
            }));
}

}  // namespace
}  // namespace fleetcap::store

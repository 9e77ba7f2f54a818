#include "store/memory_attribution_facts_repository.h"

#include <gtest/gtest.h>

#include "store/attribution_facts_contract.h"

namespace fleetcap::store {
namespace {

class MemoryAttributionFactsTest : public ::testing::Test {
 protected:
  LiveInventoryRepository& inventory() { return inventory_; }
  UsageWriteRepository& usage() { return usage_; }
  UsageRollupRepository& rollups() { return rollups_; }
  const AttributionFactsRepository& facts() { return facts_; }

  MemoryLiveInventoryRepository inventory_;
  MemoryUsageRepository usage_{usage_contract::AtT0(), &inventory_};
  MemoryUsageRollupRepository rollups_{&usage_};
  MemoryAttributionFactsRepository facts_{&inventory_, &rollups_};
};

FLEETCAP_ATTRIBUTION_FACTS_CONTRACT_TESTS(MemoryAttributionFactsTest)

TEST(UsedMilli, RoundsAndRefusesWhatIsNoNumber) {
  EXPECT_EQ(UsedMilli(0.4285), 429);
  EXPECT_EQ(UsedMilli(0.0004), 0);
  EXPECT_EQ(UsedMilli(1), 1000);
  EXPECT_EQ(UsedMilli(std::nan("")), -1);
  EXPECT_EQ(UsedMilli(1e300), -1);
}

}  // namespace
}  // namespace fleetcap::store

// PgAttributionFactsRepository keeps the same contract as the in-memory
// fake, on a fresh database per test, with the facts written through the
// PostgreSQL inventory and usage repositories and usage rolled up by
// PgUsageRollupRepository.

#include "store/pg_attribution_facts_repository.h"

#include <gtest/gtest.h>

#include "store/attribution_facts_contract.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_usage_repository.h"
#include "store/pg_usage_rollup_repository.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

class PgAttributionFactsTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    inventory_ = std::make_unique<PgLiveInventoryRepository>(pool());
    usage_ = std::make_unique<PgUsageRepository>(pool(), usage_contract::AtT0());
    rollups_ = std::make_unique<PgUsageRollupRepository>(pool());
    facts_ = std::make_unique<PgAttributionFactsRepository>(pool());
  }
  LiveInventoryRepository& inventory() { return *inventory_; }
  UsageWriteRepository& usage() { return *usage_; }
  UsageRollupRepository& rollups() { return *rollups_; }
  const AttributionFactsRepository& facts() { return *facts_; }

  std::unique_ptr<PgLiveInventoryRepository> inventory_;
  std::unique_ptr<PgUsageRepository> usage_;
  std::unique_ptr<PgUsageRollupRepository> rollups_;
  std::unique_ptr<PgAttributionFactsRepository> facts_;
};

FLEETCAP_ATTRIBUTION_FACTS_CONTRACT_TESTS(PgAttributionFactsTest)

}  // namespace
}  // namespace fleetcap::store

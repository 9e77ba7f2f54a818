// PgScenarioRepository keeps the same contract as the in-memory form, on a
// fresh database per test.

#include "store/pg_scenario_repository.h"

#include <gtest/gtest.h>

#include <memory>

#include "store/scenario_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

class PgScenarioTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgScenarioRepository>(pool());
  }
  std::unique_ptr<PgScenarioRepository> repo_;
};

TEST_F(PgScenarioTest, SavedScenarioReadsBackCanonically) {
  scenario_contract::SavedScenarioReadsBackCanonically(*repo_);
}
TEST_F(PgScenarioTest, ListIsNewestFirstAndPages) { scenario_contract::ListIsNewestFirstAndPages(*repo_); }
TEST_F(PgScenarioTest, UnknownIdIsNotFound) { scenario_contract::UnknownIdIsNotFound(*repo_); }
TEST_F(PgScenarioTest, RefusesBadDraftsNamingTheField) { scenario_contract::RefusesBadDraftsNamingTheField(*repo_); }

}  // namespace
}  // namespace fleetcap::store

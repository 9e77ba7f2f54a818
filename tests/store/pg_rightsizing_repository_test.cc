// PgRightsizingRepository keeps the same contract as the in-memory form, on
// a fresh database per test.

#include "store/pg_rightsizing_repository.h"

#include <gtest/gtest.h>

#include <memory>

#include "store/rightsizing_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

class PgRightsizingTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgRightsizingRepository>(pool());
  }
  std::unique_ptr<PgRightsizingRepository> repo_;
};

TEST_F(PgRightsizingTest, ReplacesAClustersRunWhole) { rightsizing_contract::ReplacesAClustersRunWhole(*repo_); }
TEST_F(PgRightsizingTest, SelectsByClusterNamespaceAndTeams) {
  rightsizing_contract::SelectsByClusterNamespaceAndTeams(*repo_);
}
TEST_F(PgRightsizingTest, RefusesBadRunsNamingTheField) { rightsizing_contract::RefusesBadRunsNamingTheField(*repo_); }

}  // namespace
}  // namespace fleetcap::store

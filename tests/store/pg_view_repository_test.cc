// PgViewRepository keeps the same contract as the in-memory form, on a fresh
// database per test.

#include "store/pg_view_repository.h"

#include <gtest/gtest.h>

#include <memory>

#include "store/view_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

class PgViewTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgViewRepository>(pool());
  }
  std::unique_ptr<PgViewRepository> repo_;
};

TEST_F(PgViewTest, SavedViewsReadBackByNamePerOwner) { view_contract::SavedViewsReadBackByNamePerOwner(*repo_); }
TEST_F(PgViewTest, SavingANameAgainReplacesItsView) { view_contract::SavingANameAgainReplacesItsView(*repo_); }
TEST_F(PgViewTest, RemovesOnlyTheOwnersView) { view_contract::RemovesOnlyTheOwnersView(*repo_); }
TEST_F(PgViewTest, KeepsAtMostTheLimitPerOwner) { view_contract::KeepsAtMostTheLimitPerOwner(*repo_); }
TEST_F(PgViewTest, RefusesBadViewsNamingTheField) { view_contract::RefusesBadViewsNamingTheField(*repo_); }

}  // namespace
}  // namespace fleetcap::store

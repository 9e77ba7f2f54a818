// PgOptimizerStateRepository remembers the newest policy version the
// optimizer has seen, as the in-memory one does.

#include "store/pg_optimizer_state_repository.h"

#include <gtest/gtest.h>

#include <memory>

#include "store/memory_optimizer_state_repository.h"
#include "store/optimizer_state_contract.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class PgOptimizerStateTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgOptimizerStateRepository>(pool());
  }
  OptimizerStateRepository& repo() { return *repo_; }

  std::unique_ptr<PgOptimizerStateRepository> repo_;
};

FLEETCAP_OPTIMIZER_STATE_CONTRACT_TESTS(PgOptimizerStateTest)

TEST_F(PgOptimizerStateTest, RemembersTheLastPolicyVersionSeen) {
  PgOptimizerStateRepository state(pool());
  MemoryOptimizerStateRepository memory;
  for (OptimizerStateRepository* repo :
       {static_cast<OptimizerStateRepository*>(&state), static_cast<OptimizerStateRepository*>(&memory)}) {
    auto none = repo->LastPolicyVersion();
    ASSERT_THAT(none, IsOk());
    EXPECT_EQ(*none, 0);
    ASSERT_THAT(repo->SeenPolicyVersion(3), IsOk());
    ASSERT_THAT(repo->SeenPolicyVersion(5), IsOk());
    auto last = repo->LastPolicyVersion();
    ASSERT_THAT(last, IsOk());
    EXPECT_EQ(*last, 5);
  }
  PgOptimizerStateRepository again(pool());  // kept in the database, not the object
  EXPECT_EQ(*again.LastPolicyVersion(), 5);
}

}  // namespace
}  // namespace fleetcap::store

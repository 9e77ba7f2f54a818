// PgAllocationRunRepository keeps the same contract as the in-memory form,
// on a fresh database per test, and the schema (migration 0018) refuses what
// the validation refuses even from a writer that skips it.

#include "store/pg_allocation_run_repository.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "pqxx/pqxx"
#include "store/allocation_run_contract.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class PgAllocationRunTest : public testing::MigratedDatabaseTest {
 protected:
  PgAllocationRunTest() : MigratedDatabaseTest(/*pool_size=*/4) {}
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgAllocationRunRepository>(pool());
  }
  AllocationRunRepository& repo() { return *repo_; }

  std::unique_ptr<PgAllocationRunRepository> repo_;
};

FLEETCAP_ALLOCATION_RUN_CONTRACT_TESTS(PgAllocationRunTest)

TEST_F(PgAllocationRunTest, TheSchemaRefusesAnUnknownBoundBy) {
  auto id = repo_->StoreRun(allocation_run_contract::Draft());
  ASSERT_THAT(id, IsOk());
  pqxx::work txn(*conn_);
  EXPECT_THROW(txn.exec_params("UPDATE allocation_recommendations SET bound_by = 'luck' WHERE run_id = $1", *id),
               pqxx::check_violation);
}

// Runs stored at once from several connections get distinct ids, and the
// newest id read afterwards is the largest.
TEST_F(PgAllocationRunTest, ConcurrentRunsGetDistinctGrowingIds) {
  constexpr int kWriters = 4;
  std::vector<int64_t> ids(kWriters, 0);
  std::vector<std::thread> writers;
  for (int i = 0; i < kWriters; ++i) {
    writers.emplace_back([this, &ids, i] {
      auto id = repo_->StoreRun(allocation_run_contract::Draft());
      if (id.ok()) ids[i] = *id;
    });
  }
  for (std::thread& t : writers) t.join();
  std::sort(ids.begin(), ids.end());
  EXPECT_GT(ids.front(), 0);
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  auto latest = repo_->LatestRunId();
  ASSERT_THAT(latest, IsOk());
  EXPECT_EQ(*latest, ids.back());
}

}  // namespace
}  // namespace fleetcap::store

// PgInventoryRepository answers exactly what the in-memory fake answers on the
// same inventory, and validates and replaces the same way.

#include "store/pg_inventory_repository.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pqxx/pqxx"
#include "store/memory_inventory_repository.h"
#include "store/test_inventory.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;

class PgInventoryRepositoryTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgInventoryRepository>(pool());
  }
  std::unique_ptr<PgInventoryRepository> repo_;
};

TEST_F(PgInventoryRepositoryTest, AgreesWithTheFakeAtEveryQuarterHour) {
  MemoryInventoryRepository fake;
  ASSERT_THAT(fake.ReplaceClusterInventory(TestInventory()), IsOk());
  ASSERT_THAT(repo_->ReplaceClusterInventory(TestInventory()), IsOk());
  for (int quarter = -1; quarter <= 16; ++quarter) {
    const absl::Time at = TestT0() + absl::Minutes(15 * quarter);
    for (const std::string cluster : {"c1", ""}) {
      auto want = fake.SummarizeAt(cluster, at);
      auto got = repo_->SummarizeAt(cluster, at);
      ASSERT_THAT(got, IsOk());
      EXPECT_EQ(*got, *want) << "quarter " << quarter << " cluster '" << cluster << "'";
    }
  }
  auto at_90min = repo_->SummarizeAt("c1", TestT0() + absl::Minutes(90));
  ASSERT_THAT(at_90min, IsOk());
  EXPECT_EQ(*at_90min, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 1250}}));
}

TEST_F(PgInventoryRepositoryTest, UnknownClusterIsNotFound) {
  EXPECT_THAT(repo_->SummarizeAt("nope", TestT0()), StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(PgInventoryRepositoryTest, ReplaceIsAtomicAndRepeatable) {
  ASSERT_THAT(repo_->ReplaceClusterInventory(TestInventory()), IsOk());
  ASSERT_THAT(repo_->ReplaceClusterInventory(TestInventory()), IsOk());
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM holds")[0][0].as<int>(), 3);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM devices")[0][0].as<int>(), 3);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM workloads")[0][0].as<int>(), 3);
  EXPECT_TRUE(txn.exec("SELECT held_to FROM holds WHERE pod_uid = 'share'")[0][0].is_null());

  // An invalid inventory is refused before anything changes.
  ClusterInventory bad = TestInventory();
  bad.holds.clear();
  bad.holds.push_back({"whole", "t4-0", 2000, TestT0(), std::nullopt});
  auto status = repo_->ReplaceClusterInventory(bad);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM holds")[0][0].as<int>(), 3);
}

TEST_F(PgInventoryRepositoryTest, StringsAreStoredVerbatim) {
  ClusterInventory inv = TestInventory();
  inv.pods[0].namespace_name = "'; DROP TABLE pods; --";
  inv.pods[0].team = "team\twith\\tab\nand newline";
  ASSERT_THAT(repo_->ReplaceClusterInventory(inv), IsOk());
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  auto row = txn.exec("SELECT namespace, team FROM pods WHERE pod_uid = 'whole'")[0];
  EXPECT_EQ(row[0].as<std::string>(), inv.pods[0].namespace_name);
  EXPECT_EQ(row[1].as<std::string>(), inv.pods[0].team);
}

}  // namespace
}  // namespace fleetcap::store

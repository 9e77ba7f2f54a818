// PgUsageRepository keeps the same contract as the in-memory fake, on a
// fresh database per test, and keeps what only PostgreSQL can show: the
// quarantine table written with the rows, partitions dropped by retention
// created again, and a lost connection returned for a retry.

#include "store/pg_usage_repository.h"

#include <gtest/gtest.h>

#include "pqxx/pqxx"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_quarantine_repository.h"
#include "store/usage_contract.h"
#include "store/usage_partitions.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using usage_contract::kDay;
using usage_contract::kT0;
using usage_contract::Row;

class PgUsageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    auto pool = PgPool::Open(db_->uri(), 2);
    ASSERT_TRUE(pool.ok()) << pool.status();
    pool_ = std::move(*pool);
    repo_ = std::make_unique<PgUsageRepository>(pool_.get(), usage_contract::AtT0());
    inventory_ = std::make_unique<PgLiveInventoryRepository>(pool_.get());
    conn_ = db_->Connect();
  }
  UsageWriteRepository& writer() { return *repo_; }
  UsageReadRepository& reader() { return *repo_; }
  LiveInventoryRepository& inventory() { return *inventory_; }
  int Count(const std::string& table) {
    return pqxx::nontransaction(*conn_).exec("SELECT count(*) FROM " + table)[0][0].as<int>();
  }

  std::unique_ptr<testing::TestDatabase> db_;
  std::unique_ptr<PgPool> pool_;
  std::unique_ptr<PgUsageRepository> repo_;
  std::unique_ptr<PgLiveInventoryRepository> inventory_;
  std::unique_ptr<pqxx::connection> conn_;
};

FLEETCAP_USAGE_CONTRACT_TESTS(PgUsageTest)

TEST_F(PgUsageTest, SetAsideRowsAreStoredInTheQuarantineWithTheRest) {
  auto written = repo_->WriteMinutes("c1", {Row("GPU-0", kT0, 0.5), Row("GPU-bad", kT0, 0.5, 0)}, "pull");
  ASSERT_TRUE(written.ok()) << written.status();
  PgQuarantineRepository quarantine(pool_.get());
  auto aside = quarantine.List("pull", "c1", 10);
  ASSERT_TRUE(aside.ok()) << aside.status();
  ASSERT_EQ(aside->size(), 1u);
  EXPECT_EQ((*aside)[0].object_key, "device GPU-bad minute 2026-01-01T00:00:00Z");
  EXPECT_EQ(Count("usage_minute"), 1);
}

// Retention drops a partition this repository created: its memory of
// existing partitions no longer holds, and every later write of that day
// failed.
TEST_F(PgUsageTest, APartitionDroppedByRetentionIsCreatedAgain) {
  const int64_t day_before = kT0 - kDay;
  ASSERT_TRUE(repo_->WriteMinutes("c1", {Row("GPU-0", day_before, 0.5)}, "pull").ok());
  // Another maintainer with a shorter retention drops yesterday's partition.
  ASSERT_TRUE(MaintainUsagePartitions(*conn_, absl::FromUnixMillis(kT0 + kDay), {0, 1}).ok());
  ASSERT_TRUE(
      pqxx::nontransaction(*conn_).exec("SELECT to_regclass('usage_minute_20251231') IS NULL")[0][0].as<bool>());
  auto written = repo_->WriteMinutes("c1", {Row("GPU-0", day_before + 60'000, 0.5)}, "pull");
  ASSERT_TRUE(written.ok()) << written.status();
  EXPECT_EQ(written->written, 1);
  EXPECT_TRUE(written->set_aside.empty());
}

TEST_F(PgUsageTest, ALostConnectionIsUnavailableAndNothingIsSetAside) {
  ASSERT_TRUE(repo_->WriteMinutes("c1", {Row("GPU-0", kT0, 0.5)}, "pull").ok());
  pqxx::nontransaction(*conn_).exec(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
      " WHERE datname = current_database() AND pid <> pg_backend_pid()");
  PushProgress progress;
  progress.devices = {{"GPU-0", kT0 + 120'000}};
  progress.log_id = "log-a";
  progress.checkpoint = 3;
  auto failed = repo_->WriteClosedMinutes("c1", {Row("GPU-0", kT0 + 60'000, 0.5)}, progress);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), absl::StatusCode::kUnavailable) << failed.status();
  EXPECT_EQ(Count("quarantine"), 0);
  auto retried = repo_->WriteClosedMinutes("c1", {Row("GPU-0", kT0 + 60'000, 0.5)}, progress);
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_EQ(Count("usage_minute"), 2);
  EXPECT_EQ(repo_->LoadPushState("c1")->checkpoint, 3);
}

}  // namespace
}  // namespace fleetcap::store

#pragma once
// A fresh database per test on the private PostgreSQL that the ctest fixture
// `pg` starts (scripts/pg.sh, folder in $FLEETCAP_TEST_PG_DIR). Migrated
// databases are cloned from a template migrated once per schema version, so
// each costs a file copy, not a migration run. Dropped when destroyed.

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/pg_pool.h"
#include "pqxx/connection"
#include "tests/support/status_matchers.h"

namespace fleetcap::testing {

class TestDatabase {
 public:
  // A database with the whole schema applied.
  static absl::StatusOr<std::unique_ptr<TestDatabase>> Migrated();
  // A database with nothing in it (for migration tests).
  static absl::StatusOr<std::unique_ptr<TestDatabase>> Empty();
  ~TestDatabase();

  const std::string& uri() const { return uri_; }
  const std::string& name() const { return name_; }
  std::unique_ptr<pqxx::connection> Connect() const;
  // True once at least `n` sessions of this database wait for a lock, polled
  // until `timeout` (tests that show one session holding another back).
  bool SessionsWaitForALock(int n, absl::Duration timeout) const;

 private:
  TestDatabase(std::string server_uri, std::string name);
  std::string server_uri_;  // the maintenance database `fleetcap`
  std::string name_;
  std::string uri_;
};

// The one fixture of tests that need PostgreSQL: a fresh migrated database,
// one connection to it, and a pool over it for the repositories under test.
// A fixture that adds to SetUp calls this one first and stops on its failure:
//   void SetUp() override {
//     MigratedDatabaseTest::SetUp();
//     if (HasFatalFailure()) return;
//     repo_ = std::make_unique<PgThingRepository>(pool());
//   }
class MigratedDatabaseTest : public ::testing::Test {
 protected:
  // `pool_size`: the connections pool() opens (the repositories' concurrency).
  explicit MigratedDatabaseTest(int pool_size = 2) : pool_size_(pool_size) {}

  void SetUp() override {
    auto db = TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = std::move(*db);
    conn_ = db_->Connect();
  }

  // A pool of `pool_size` connections to the test's database, opened on first use.
  PgPool* pool() {
    if (pool_ == nullptr) {
      auto pool = PgPool::Open(db_->uri(), pool_size_);
      EXPECT_THAT(pool, IsOk());
      if (pool.ok()) pool_ = std::move(*pool);
    }
    return pool_.get();
  }

  std::unique_ptr<TestDatabase> db_;
  std::unique_ptr<pqxx::connection> conn_;

 private:
  const int pool_size_;
  std::unique_ptr<PgPool> pool_;
};

}  // namespace fleetcap::testing

#pragma once
// A fresh database per test on the private PostgreSQL that the ctest fixture
// `pg` starts (scripts/pg.sh, folder in $FLEETCAP_TEST_PG_DIR). Migrated
// databases are cloned from a template migrated once per schema version, so
// each costs a file copy, not a migration run. Dropped when destroyed.

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "absl/status/statusor.h"
#include "pqxx/connection"

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

 private:
  TestDatabase(std::string server_uri, std::string name);
  std::string server_uri_;  // the maintenance database `fleetcap`
  std::string name_;
  std::string uri_;
};

// A test with a fresh migrated database and one connection to it.
class MigratedDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = TestDatabase::Migrated();
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    conn_ = db_->Connect();
  }
  std::unique_ptr<TestDatabase> db_;
  std::unique_ptr<pqxx::connection> conn_;
};

}  // namespace fleetcap::testing

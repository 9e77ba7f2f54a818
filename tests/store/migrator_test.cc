// The migrator against a real PostgreSQL: fresh, repeated, concurrent,
// tampered, newer and older schemas.

#include "store/migrator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "pqxx/pqxx"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::fleetcap::testing::TestDatabase;
using ::testing::HasSubstr;

std::vector<Migration> TwoMigrations() {
  return {{1, "0001_first", "CREATE TABLE first_table (id integer PRIMARY KEY)"},
          {2, "0002_second", "CREATE TABLE second_table (id integer PRIMARY KEY)"}};
}

int LedgerRows(pqxx::connection& conn) {
  pqxx::nontransaction txn(conn);
  return txn.exec("SELECT count(*) FROM schema_migrations")[0][0].as<int>();
}

TEST(Migrator, FreshDatabaseGetsTheWholeSchemaRecordedWithChecksums) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  auto applied = Migrator().Apply(*conn);
  ASSERT_THAT(applied, IsOk());
  ASSERT_EQ(applied->size(), BuiltinMigrations().size());

  pqxx::nontransaction txn(*conn);
  auto rows = txn.exec("SELECT version, name, checksum FROM schema_migrations ORDER BY version");
  ASSERT_EQ(rows.size(), BuiltinMigrations().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][1].as<std::string>(), BuiltinMigrations()[i].name);
    EXPECT_EQ(rows[i][2].as<std::string>(), MigrationChecksum(BuiltinMigrations()[i]));
  }
  // The domain model's tables are there.
  for (const char* table : {"clusters",
                            "accelerator_types",
                            "nodes",
                            "devices",
                            "workloads",
                            "pods",
                            "holds",
                            "usage_minute",
                            "teams",
                            "namespace_labels",
                            "prices",
                            "chargeback_hourly",
                            "chargeback_daily",
                            "chargeback_hourly_by_team",
                            "chargeback_daily_by_team",
                            "chargeback_monthly",
                            "chargeback_watermarks",
                            "chargeback_recompute",
                            "chargeback_over_held",
                            "usage_hourly",
                            "usage_hour_changes",
                            "optimizer_state",
                            "quarantine",
                            "allocation_runs",
                            "allocation_recommendations",
                            "policies",
                            "api_tokens",
                            "audit_log"}) {
    EXPECT_FALSE(txn.exec_params("SELECT to_regclass($1)", table)[0][0].is_null()) << table;
  }
}

TEST(Migrator, RepeatedApplyDoesNothing) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator().Apply(*conn), IsOk());
  auto again = Migrator().Apply(*conn);
  ASSERT_THAT(again, IsOk());
  EXPECT_TRUE(again->empty());
  EXPECT_EQ(LedgerRows(*conn), static_cast<int>(BuiltinMigrations().size()));
  auto state = Migrator().Inspect(*conn);
  ASSERT_THAT(state, IsOk());
  EXPECT_TRUE(state->pending.empty());
}

TEST(Migrator, ConcurrentMigratorsApplyEachMigrationOnce) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  constexpr int kProcesses = 6;
  std::vector<std::unique_ptr<pqxx::connection>> conns;
  for (int i = 0; i < kProcesses; ++i) conns.push_back((*db)->Connect());
  std::vector<absl::StatusOr<std::vector<std::string>>> results(kProcesses);
  std::vector<std::thread> threads;
  for (int i = 0; i < kProcesses; ++i) {
    threads.emplace_back([&, i] { results[i] = Migrator().Apply(*conns[i]); });
  }
  for (auto& t : threads) t.join();
  size_t total_applied = 0;
  for (const auto& r : results) {
    ASSERT_THAT(r, IsOk());
    total_applied += r->size();
  }
  EXPECT_EQ(total_applied, BuiltinMigrations().size());
  EXPECT_EQ(LedgerRows(*conns[0]), static_cast<int>(BuiltinMigrations().size()));
}

TEST(Migrator, TamperedMigrationIsRefusedByName) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator(TwoMigrations()).Apply(*conn), IsOk());
  auto tampered = TwoMigrations();
  tampered[0].sql += " -- edited";
  auto result = Migrator(tampered).Apply(*conn);
  ASSERT_THAT(result, StatusIs(absl::StatusCode::kFailedPrecondition,
                               HasSubstr("0001_first was changed after it was applied")));
  EXPECT_THAT(Migrator(tampered).EnsureCurrent(*conn, false), StatusIs(absl::StatusCode::kFailedPrecondition));
}

TEST(Migrator, NewerDatabaseIsRefused) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator(TwoMigrations()).Apply(*conn), IsOk());
  std::vector<Migration> older_build = {TwoMigrations()[0]};
  for (bool migrate : {false, true}) {
    EXPECT_THAT(
        Migrator(older_build).EnsureCurrent(*conn, migrate),
        StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("newer than this build: migration 0002_second")));
  }
}

TEST(Migrator, OlderDatabaseNamesWhatIsMissingOrMigrates) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator({TwoMigrations()[0]}).Apply(*conn), IsOk());
  EXPECT_THAT(Migrator(TwoMigrations()).EnsureCurrent(*conn, /*migrate=*/false),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("missing migrations 0002_second")));
  ASSERT_THAT(Migrator(TwoMigrations()).EnsureCurrent(*conn, /*migrate=*/true), IsOk());
  EXPECT_EQ(LedgerRows(*conn), 2);
}

TEST(Migrator, FailingMigrationLeavesNothingBehind) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  std::vector<Migration> broken = {
      {1, "0001_ok", "CREATE TABLE ok_table (id integer)"},
      {2, "0002_broken", "CREATE TABLE half_table (id integer); SELECT no_such_function()"}};
  auto result = Migrator(broken).Apply(*conn);
  ASSERT_THAT(result, StatusIs(absl::StatusCode::kInternal, HasSubstr("0002_broken")));
  pqxx::nontransaction txn(*conn);
  EXPECT_TRUE(txn.exec("SELECT to_regclass('half_table')")[0][0].is_null());
  EXPECT_FALSE(txn.exec("SELECT to_regclass('ok_table')")[0][0].is_null());
  EXPECT_EQ(txn.exec("SELECT count(*) FROM schema_migrations")[0][0].as<int>(), 1);
}

}  // namespace
}  // namespace fleetcap::store

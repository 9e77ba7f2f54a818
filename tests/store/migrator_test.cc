// The migrator against a real PostgreSQL: fresh, repeated, concurrent,
// tampered, newer and older schemas.

#include "store/migrator.h"

#include <gtest/gtest.h>

#include <thread>

#include "pqxx/pqxx"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::TestDatabase;

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
  ASSERT_TRUE(db.ok()) << db.status();
  auto conn = (*db)->Connect();
  auto applied = Migrator().Apply(*conn);
  ASSERT_TRUE(applied.ok()) << applied.status();
  ASSERT_EQ(applied->size(), BuiltinMigrations().size());

  pqxx::nontransaction txn(*conn);
  auto rows = txn.exec("SELECT version, name, checksum FROM schema_migrations ORDER BY version");
  ASSERT_EQ(rows.size(), BuiltinMigrations().size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][1].as<std::string>(), BuiltinMigrations()[i].name);
    EXPECT_EQ(rows[i][2].as<std::string>(), MigrationChecksum(BuiltinMigrations()[i]));
  }
  // The domain model's tables are there.
  for (const char* table : {"clusters", "accelerator_types", "nodes", "devices", "workloads", "pods", "holds",
                            "usage_minute", "teams", "namespace_labels", "prices", "chargeback_hourly",
                            "allocation_runs", "allocation_recommendations", "policies", "api_tokens",
                            "audit_log"}) {
    EXPECT_FALSE(txn.exec_params("SELECT to_regclass($1)", table)[0][0].is_null()) << table;
  }
}

TEST(Migrator, RepeatedApplyDoesNothing) {
  auto db = TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  auto conn = (*db)->Connect();
  ASSERT_TRUE(Migrator().Apply(*conn).ok());
  auto again = Migrator().Apply(*conn);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->empty());
  EXPECT_EQ(LedgerRows(*conn), static_cast<int>(BuiltinMigrations().size()));
  auto state = Migrator().Inspect(*conn);
  ASSERT_TRUE(state.ok());
  EXPECT_TRUE(state->pending.empty());
}

TEST(Migrator, ConcurrentMigratorsApplyEachMigrationOnce) {
  auto db = TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
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
    ASSERT_TRUE(r.ok()) << r.status();
    total_applied += r->size();
  }
  EXPECT_EQ(total_applied, BuiltinMigrations().size());
  EXPECT_EQ(LedgerRows(*conns[0]), static_cast<int>(BuiltinMigrations().size()));
}

TEST(Migrator, TamperedMigrationIsRefusedByName) {
  auto db = TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  auto conn = (*db)->Connect();
  ASSERT_TRUE(Migrator(TwoMigrations()).Apply(*conn).ok());
  auto tampered = TwoMigrations();
  tampered[0].sql += " -- edited";
  auto result = Migrator(tampered).Apply(*conn);
  ASSERT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(result.status().message().find("0001_first was changed after it was applied"),
            absl::string_view::npos)
      << result.status();
  EXPECT_EQ(Migrator(tampered).EnsureCurrent(*conn, false).code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Migrator, NewerDatabaseIsRefused) {
  auto db = TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  auto conn = (*db)->Connect();
  ASSERT_TRUE(Migrator(TwoMigrations()).Apply(*conn).ok());
  std::vector<Migration> older_build = {TwoMigrations()[0]};
  for (bool migrate : {false, true}) {
    absl::Status status = Migrator(older_build).EnsureCurrent(*conn, migrate);
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(status.message().find("newer than this build: migration 0002_second"), absl::string_view::npos)
        << status;
  }
}

TEST(Migrator, OlderDatabaseNamesWhatIsMissingOrMigrates) {
  auto db = TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  auto conn = (*db)->Connect();
  ASSERT_TRUE(Migrator({TwoMigrations()[0]}).Apply(*conn).ok());
  absl::Status status = Migrator(TwoMigrations()).EnsureCurrent(*conn, /*migrate=*/false);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find("missing migrations 0002_second"), absl::string_view::npos) << status;
  ASSERT_TRUE(Migrator(TwoMigrations()).EnsureCurrent(*conn, /*migrate=*/true).ok());
  EXPECT_EQ(LedgerRows(*conn), 2);
}

TEST(Migrator, FailingMigrationLeavesNothingBehind) {
  auto db = TestDatabase::Empty();
  ASSERT_TRUE(db.ok()) << db.status();
  auto conn = (*db)->Connect();
  std::vector<Migration> broken = {
      {1, "0001_ok", "CREATE TABLE ok_table (id integer)"},
      {2, "0002_broken", "CREATE TABLE half_table (id integer); SELECT no_such_function()"}};
  auto result = Migrator(broken).Apply(*conn);
  ASSERT_EQ(result.status().code(), absl::StatusCode::kInternal);
  EXPECT_NE(result.status().message().find("0002_broken"), absl::string_view::npos);
  pqxx::nontransaction txn(*conn);
  EXPECT_TRUE(txn.exec("SELECT to_regclass('half_table')")[0][0].is_null());
  EXPECT_FALSE(txn.exec("SELECT to_regclass('ok_table')")[0][0].is_null());
  EXPECT_EQ(txn.exec("SELECT count(*) FROM schema_migrations")[0][0].as<int>(), 1);
}

}  // namespace
}  // namespace fleetcap::store

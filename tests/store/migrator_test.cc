// The migrator against a real PostgreSQL: fresh, repeated, concurrent,
// tampered, newer and older schemas; repeatable functions applied once,
// again when their text changes, and defining what the migrations did.

#include "store/migrator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
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
                            "usage_cluster_hourly",
                            "usage_cluster_hour_changes",
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

// Every fleetcap function's definition and every trigger's, by name. (The
// aggregate fleetcap_sum_int64 of 0017 is a table's kind of object, not a
// function with a body: it stays a migration's.)
std::map<std::string, std::string> FunctionAndTriggerDefinitions(pqxx::connection& conn) {
  pqxx::nontransaction txn(conn);
  std::map<std::string, std::string> definitions;
  for (const auto& row : txn.exec("SELECT p.oid::regprocedure::text, pg_get_functiondef(p.oid) FROM pg_proc p "
                                  "JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND "
                                  "p.proname LIKE 'fleetcap%' AND p.prokind = 'f'")) {
    definitions["function " + row[0].as<std::string>()] = row[1].as<std::string>();
  }
  for (const auto& row :
       txn.exec("SELECT t.tgrelid::regclass::text || '.' || t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t "
                "WHERE NOT t.tgisinternal")) {
    definitions["trigger " + row[0].as<std::string>()] = row[1].as<std::string>();
  }
  return definitions;
}

TEST(Migrator, FreshDatabaseEndsWithExactlyTheRepeatableDefinitions) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  auto applied = Migrator().ApplySchema(*conn);
  ASSERT_THAT(applied, IsOk());
  ASSERT_FALSE(BuiltinRepeatables().empty());
  std::vector<std::string> names;
  for (const auto& r : BuiltinRepeatables()) names.push_back(r.name);
  EXPECT_EQ(applied->functions, names);

  pqxx::nontransaction txn(*conn);
  auto ledger = txn.exec("SELECT name, checksum FROM schema_repeatables ORDER BY name");
  ASSERT_EQ(ledger.size(), BuiltinRepeatables().size());
  for (size_t i = 0; i < ledger.size(); ++i) {
    EXPECT_EQ(ledger[i][0].as<std::string>(), BuiltinRepeatables()[i].name);
    EXPECT_EQ(ledger[i][1].as<std::string>(), RepeatableChecksum(BuiltinRepeatables()[i]));
  }
  // Each fleetcap function's body is the one its file holds, and every one
  // has a file.
  std::map<std::string, const Repeatable*> by_name;
  for (const auto& r : BuiltinRepeatables()) by_name[r.name] = &r;
  auto functions = txn.exec(
      "SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
      "WHERE n.nspname = 'public' AND p.proname LIKE 'fleetcap%' AND p.prokind = 'f'");
  EXPECT_EQ(functions.size(), BuiltinRepeatables().size());
  for (const auto& row : functions) {
    auto it = by_name.find(row[0].as<std::string>());
    ASSERT_NE(it, by_name.end()) << "no store/functions file for " << row[0].as<std::string>();
    EXPECT_THAT(it->second->sql, HasSubstr(row[1].as<std::string>())) << it->first;
  }
  txn.commit();
  auto state = Migrator().Inspect(*conn);
  ASSERT_THAT(state, IsOk());
  EXPECT_TRUE(state->stale_functions.empty());
  EXPECT_THAT(Migrator().EnsureCurrent(*conn, /*migrate=*/false), IsOk());
}

// A database migrated before the functions had files of their own (by the
// numbered migrations alone) ends with the same functions and triggers, so
// they behave alike on existing and new databases.
TEST(Migrator, RepeatablesDefineWhatTheMigrationsLeft) {
  auto migrations_only = TestDatabase::Empty();
  ASSERT_THAT(migrations_only, IsOk());
  auto old_conn = (*migrations_only)->Connect();
  ASSERT_THAT(Migrator(BuiltinMigrations()).Apply(*old_conn), IsOk());
  auto before = FunctionAndTriggerDefinitions(*old_conn);
  ASSERT_FALSE(before.empty());

  EXPECT_THAT(Migrator().EnsureCurrent(*old_conn, /*migrate=*/false),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("fleetcap_mark_recompute")));
  auto upgraded = Migrator().ApplySchema(*old_conn);
  ASSERT_THAT(upgraded, IsOk());
  EXPECT_TRUE(upgraded->migrations.empty());
  EXPECT_EQ(upgraded->functions.size(), BuiltinRepeatables().size());
  EXPECT_EQ(FunctionAndTriggerDefinitions(*old_conn), before);

  auto fresh = TestDatabase::Empty();
  ASSERT_THAT(fresh, IsOk());
  auto fresh_conn = (*fresh)->Connect();
  ASSERT_THAT(Migrator().Apply(*fresh_conn), IsOk());
  EXPECT_EQ(FunctionAndTriggerDefinitions(*fresh_conn), before);
}

std::vector<Repeatable> TwoRepeatables() {
  return {{"fleetcap_one", "CREATE OR REPLACE FUNCTION fleetcap_one() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$"},
          {"fleetcap_two", "CREATE OR REPLACE FUNCTION fleetcap_two() RETURNS integer LANGUAGE sql AS $$ SELECT 2 $$"}};
}

int CallFunction(pqxx::connection& conn, const std::string& name) {
  pqxx::nontransaction txn(conn);
  return txn.exec("SELECT " + name + "()")[0][0].as<int>();
}

TEST(Migrator, ChangedRepeatableIsReappliedAndAnUnchangedOneIsNot) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  auto first = Migrator(TwoMigrations(), TwoRepeatables()).ApplySchema(*conn);
  ASSERT_THAT(first, IsOk());
  EXPECT_THAT(first->functions, ::testing::ElementsAre("fleetcap_one", "fleetcap_two"));
  EXPECT_EQ(CallFunction(*conn, "fleetcap_one"), 1);

  // Redefined behind the migrator's back: only a re-application would undo it.
  pqxx::nontransaction(*conn).exec(
      "CREATE OR REPLACE FUNCTION fleetcap_two() RETURNS integer LANGUAGE sql AS $$ SELECT 22 $$");
  auto changed = TwoRepeatables();
  changed[0].sql = "CREATE OR REPLACE FUNCTION fleetcap_one() RETURNS integer LANGUAGE sql AS $$ SELECT 10 $$";
  Migrator next_build(TwoMigrations(), changed);

  auto state = next_build.Inspect(*conn);
  ASSERT_THAT(state, IsOk());
  EXPECT_TRUE(state->pending.empty());
  EXPECT_THAT(state->stale_functions, ::testing::ElementsAre("fleetcap_one"));
  EXPECT_THAT(next_build.EnsureCurrent(*conn, /*migrate=*/false),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("fleetcap_one")));

  auto second = next_build.ApplySchema(*conn);
  ASSERT_THAT(second, IsOk());
  EXPECT_TRUE(second->migrations.empty());
  EXPECT_THAT(second->functions, ::testing::ElementsAre("fleetcap_one"));
  EXPECT_EQ(CallFunction(*conn, "fleetcap_one"), 10);
  EXPECT_EQ(CallFunction(*conn, "fleetcap_two"), 22) << "an unchanged file was applied again";
  {
    pqxx::nontransaction txn(*conn);
    EXPECT_EQ(txn.exec("SELECT checksum FROM schema_repeatables WHERE name = 'fleetcap_one'")[0][0].as<std::string>(),
              RepeatableChecksum(changed[0]));
  }

  auto third = next_build.ApplySchema(*conn);
  ASSERT_THAT(third, IsOk());
  EXPECT_TRUE(third->functions.empty());
  EXPECT_THAT(next_build.EnsureCurrent(*conn, /*migrate=*/false), IsOk());
}

TEST(Migrator, FailingRepeatableLeavesItsOldDefinitionAndLedgerRow) {
  auto db = TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto conn = (*db)->Connect();
  ASSERT_THAT(Migrator(TwoMigrations(), TwoRepeatables()).Apply(*conn), IsOk());
  auto broken = TwoRepeatables();
  broken[0].sql =
      "CREATE OR REPLACE FUNCTION fleetcap_one() RETURNS integer LANGUAGE sql AS $$ SELECT 3 $$; "
      "SELECT no_such_function()";
  EXPECT_THAT(Migrator(TwoMigrations(), broken).Apply(*conn),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("fleetcap_one")));
  EXPECT_EQ(CallFunction(*conn, "fleetcap_one"), 1);
  pqxx::nontransaction txn(*conn);
  EXPECT_EQ(txn.exec("SELECT checksum FROM schema_repeatables WHERE name = 'fleetcap_one'")[0][0].as<std::string>(),
            RepeatableChecksum(TwoRepeatables()[0]));
}

}  // namespace
}  // namespace fleetcap::store

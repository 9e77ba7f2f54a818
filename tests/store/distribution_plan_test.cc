// The schema stays ready for Citus (docs/scaling.md): a fresh database
// migrated by the project's migrator is held, through its catalog
// (pg_class, pg_inherits, pg_index, pg_constraint), to the distribution plan
// declared in store/distribution_plan.cc. Every table has a place; every
// primary key, unique index and exclusion constraint of a distributed table
// holds its distribution column (Citus enforces uniqueness only within a
// shard); foreign keys go only to reference tables, or to a table of the
// same co-location group with the distribution column matched to its own.
// The checker is shown to catch each harm on a schema changed to commit it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "pqxx/pqxx"
#include "store/distribution_plan.h"
#include "store/migrator.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::TestDatabase;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kPlanFile = "store/distribution_plan.cc";

// The top-level tables of the current schema: ordinary and partitioned
// tables that are not partitions or inheritance children of another table
// (those are placed with their parent).
std::set<std::string> TopLevelTables(pqxx::transaction_base& txn) {
  std::set<std::string> tables;
  for (const auto& row : txn.exec("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                                  " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
                                  "   AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)")) {
    tables.insert(row[0].as<std::string>());
  }
  return tables;
}

// A distributed table's column: whether it exists, is NOT NULL, and its type.
struct DistributionColumn {
  bool exists = false;
  bool not_null = false;
  std::string type;
};
DistributionColumn ColumnOf(pqxx::transaction_base& txn, const std::string& table, const std::string& column) {
  auto rows = txn.exec_params(
      "SELECT a.attnotnull, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a"
      " WHERE a.attrelid = to_regclass($1) AND a.attname = $2 AND a.attnum > 0 AND NOT a.attisdropped",
      table, column);
  if (rows.empty()) return {};
  return {true, rows[0][0].as<bool>(), rows[0][1].as<std::string>()};
}

// Unique indexes (primary keys and unique constraints among them) and
// exclusion constraints of `table` that do not hold `column` as a plain
// column: each would be enforced per shard only, so it would stop meaning
// what it says once the table is distributed.
std::vector<std::string> KeysWithoutColumn(pqxx::transaction_base& txn, const std::string& table,
                                           const std::string& column) {
  std::vector<std::string> found;
  for (const auto& row : txn.exec_params(
           "SELECT i.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x"
           " JOIN pg_class i ON i.oid = x.indexrelid"
           " WHERE x.indrelid = to_regclass($1) AND x.indisunique"
           "   AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = x.indrelid AND a.attname = $2"
           "                     AND a.attnum = ANY (x.indkey::int2[]))"
           " ORDER BY 1",
           table, column)) {
    found.push_back(absl::StrCat(row[0].as<std::string>(), " (", row[1].as<std::string>(), ")"));
  }
  for (const auto& row : txn.exec_params(
           "SELECT c.conname, pg_get_constraintdef(c.oid) FROM pg_constraint c"
           " WHERE c.conrelid = to_regclass($1) AND c.contype = 'x'"
           "   AND NOT EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attname = $2"
           "                     AND a.attnum = ANY (c.conkey))"
           " ORDER BY 1",
           table, column)) {
    found.push_back(absl::StrCat(row[0].as<std::string>(), " (", row[1].as<std::string>(), ")"));
  }
  return found;
}

struct ForeignKey {
  std::string name;
  std::string from_table;
  std::string to_table;
  std::vector<std::pair<std::string, std::string>> columns;  // (referencing, referenced)
  std::string definition;
};

// The schema's foreign keys, without the copies PostgreSQL makes of a
// partitioned table's key on each partition (conparentid <> 0).
std::vector<ForeignKey> ForeignKeys(pqxx::transaction_base& txn) {
  std::map<std::string, ForeignKey> keys;
  for (const auto& row :
       txn.exec("SELECT c.conname, src.relname, dst.relname, pg_get_constraintdef(c.oid), sa.attname, da.attname"
                " FROM pg_constraint c"
                " JOIN pg_class src ON src.oid = c.conrelid JOIN pg_class dst ON dst.oid = c.confrelid"
                " JOIN pg_namespace n ON n.oid = c.connamespace"
                " CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY k(src_att, dst_att, position)"
                " JOIN pg_attribute sa ON sa.attrelid = c.conrelid AND sa.attnum = k.src_att"
                " JOIN pg_attribute da ON da.attrelid = c.confrelid AND da.attnum = k.dst_att"
                " WHERE c.contype = 'f' AND c.conparentid = 0 AND n.nspname = current_schema()"
                " ORDER BY src.relname, c.conname, k.position")) {
    const std::string key = absl::StrCat(row[1].as<std::string>(), ".", row[0].as<std::string>());
    ForeignKey& fk = keys[key];
    fk.name = row[0].as<std::string>();
    fk.from_table = row[1].as<std::string>();
    fk.to_table = row[2].as<std::string>();
    fk.definition = row[3].as<std::string>();
    fk.columns.emplace_back(row[4].as<std::string>(), row[5].as<std::string>());
  }
  std::vector<ForeignKey> out;
  for (auto& [_, fk] : keys) out.push_back(std::move(fk));
  return out;
}

const PlannedTable* Find(const std::vector<PlannedTable>& plan, const std::string& table) {
  for (const PlannedTable& t : plan) {
    if (t.table == table) return &t;
  }
  return nullptr;
}

// A foreign key from `from` to `to` that Citus can enforce without leaving
// a node: why not, or "" when it can.
std::string ForeignKeyProblem(const ForeignKey& fk, const PlannedTable& from, const PlannedTable& to) {
  const std::string where =
      absl::StrCat("foreign key ", fk.name, " of ", TablePlacementName(from.placement), " table ", fk.from_table,
                   " to ", TablePlacementName(to.placement), " table ", fk.to_table, " (", fk.definition, ")");
  switch (from.placement) {
    case TablePlacement::kDistributed: {
      if (to.placement == TablePlacement::kReference) return "";
      if (to.placement != TablePlacement::kDistributed || to.colocation_group != from.colocation_group) {
        return absl::StrCat(where,
                            ": a distributed table may refer only to reference tables or to tables of its own "
                            "co-location group (",
                            from.colocation_group, ")");
      }
      for (const auto& [src, dst] : fk.columns) {
        if (src == from.distribution_column && dst == to.distribution_column) return "";
      }
      return absl::StrCat(where, ": it must match ", fk.from_table, ".", from.distribution_column, " to ", fk.to_table,
                          ".", to.distribution_column, " so that both rows live on one shard");
    }
    case TablePlacement::kReference:
      if (to.placement == TablePlacement::kReference) return "";
      return absl::StrCat(where, ": a reference table (copied to every node) may refer only to reference tables");
    case TablePlacement::kCoordinatorLocal:
      if (to.placement != TablePlacement::kDistributed) return "";
      return absl::StrCat(where, ": a coordinator-local table may refer only to local or reference tables");
  }
  return "";
}

// Everything in the live schema the plan does not allow, one line each.
std::vector<std::string> ReadinessProblems(pqxx::connection& conn, const std::vector<PlannedTable>& plan) {
  pqxx::read_transaction txn(conn);
  std::vector<std::string> problems;
  const std::set<std::string> tables = TopLevelTables(txn);
  for (const std::string& table : tables) {
    if (Find(plan, table) == nullptr) {
      problems.push_back(absl::StrCat("table ", table, " has no place in the distribution plan: classify it in ",
                                      kPlanFile,
                                      " (distributed by a column, reference or coordinator-local; docs/scaling.md)"));
    }
  }
  std::map<std::string, std::string> group_type;  // co-location group -> distribution column type
  for (const PlannedTable& planned : plan) {
    if (tables.count(planned.table) == 0) {
      problems.push_back(absl::StrCat("the distribution plan names table ", planned.table,
                                      ", which the schema does not have: remove it from ", kPlanFile));
      continue;
    }
    if (planned.placement != TablePlacement::kDistributed) continue;
    const DistributionColumn column = ColumnOf(txn, planned.table, planned.distribution_column);
    if (!column.exists) {
      problems.push_back(absl::StrCat("distributed table ", planned.table, " has no distribution column ",
                                      planned.distribution_column));
      continue;
    }
    if (!column.not_null) {
      problems.push_back(absl::StrCat("distributed table ", planned.table, ": its distribution column ",
                                      planned.distribution_column, " must be NOT NULL"));
    }
    auto [it, first] = group_type.emplace(planned.colocation_group, column.type);
    if (!first && it->second != column.type) {
      problems.push_back(absl::StrCat("distributed table ", planned.table, ": its distribution column ",
                                      planned.distribution_column, " is ", column.type, ", but co-location group ",
                                      planned.colocation_group, " is distributed by ", it->second));
    }
    for (const std::string& key : KeysWithoutColumn(txn, planned.table, planned.distribution_column)) {
      problems.push_back(absl::StrCat("distributed table ", planned.table, ": unique key ", key,
                                      " lacks the distribution column ", planned.distribution_column,
                                      ", so it could not be enforced across shards"));
    }
  }
  for (const ForeignKey& fk : ForeignKeys(txn)) {
    const PlannedTable* from = Find(plan, fk.from_table);
    const PlannedTable* to = Find(plan, fk.to_table);
    if (from == nullptr || to == nullptr) continue;  // reported above as unclassified
    std::string problem = ForeignKeyProblem(fk, *from, *to);
    if (!problem.empty()) problems.push_back(std::move(problem));
  }
  return problems;
}

class DistributionPlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = TestDatabase::Empty();
    ASSERT_THAT(db, IsOk());
    db_ = std::move(*db);
    conn_ = db_->Connect();
    ASSERT_THAT(Migrator().Apply(*conn_), IsOk());
    // A day of usage_minute, so that a partition (placed with its parent) is in the catalog.
    Exec("SELECT fleetcap_ensure_usage_partition('2026-01-01')");
  }
  void Exec(const std::string& sql) {
    pqxx::nontransaction txn(*conn_);
    txn.exec(sql);
  }

  std::unique_ptr<TestDatabase> db_;
  std::unique_ptr<pqxx::connection> conn_;
};

TEST_F(DistributionPlanTest, TheMigratedSchemaIsReadyForItsDistributionPlan) {
  EXPECT_THAT(ReadinessProblems(*conn_, DistributionPlan()), IsEmpty())
      << "the schema after every migration breaks the plan in " << kPlanFile << " (docs/scaling.md)";
}

TEST_F(DistributionPlanTest, ThePlanPlacesTheLargeTablesByClusterInOneCoLocationGroup) {
  for (const char* table : {"usage_minute", "usage_hourly", "holds", "pods", "devices", "chargeback_hourly",
                            "chargeback_daily", "quarantine", "telemetry_series"}) {
    const PlannedTable* planned = FindPlannedTable(table);
    ASSERT_NE(planned, nullptr) << table;
    EXPECT_EQ(planned->placement, TablePlacement::kDistributed) << table;
    EXPECT_EQ(planned->distribution_column, "cluster") << table;
    EXPECT_EQ(planned->colocation_group, "cluster") << table;
  }
  for (const char* table : {"clusters", "accelerator_types", "teams", "prices", "policies", "api_tokens"}) {
    const PlannedTable* planned = FindPlannedTable(table);
    ASSERT_NE(planned, nullptr) << table;
    EXPECT_EQ(planned->placement, TablePlacement::kReference) << table;
  }
  EXPECT_TRUE(FindPlannedTable("usage_minute")->time_partitioned);
  EXPECT_EQ(FindPlannedTable("no_such_table"), nullptr);
}

TEST_F(DistributionPlanTest, ANewTableWithoutAPlaceFailsAndSaysToClassifyIt) {
  Exec(
      "CREATE TABLE gpu_reservations (cluster text NOT NULL, reservation text NOT NULL, PRIMARY KEY (cluster, "
      "reservation))");
  EXPECT_THAT(ReadinessProblems(*conn_, DistributionPlan()),
              ElementsAre(AllOf(HasSubstr("table gpu_reservations has no place in the distribution plan"),
                                HasSubstr("classify it in store/distribution_plan.cc"))));
}

TEST_F(DistributionPlanTest, APlanEntryForATableTheSchemaLacksFails) {
  std::vector<PlannedTable> plan = DistributionPlan();
  plan.push_back(PlannedTable{"gpu_reservations", TablePlacement::kReference, "", "", false});
  EXPECT_THAT(ReadinessProblems(*conn_, plan),
              ElementsAre(HasSubstr("names table gpu_reservations, which the schema does not have")));
}

TEST_F(DistributionPlanTest, AUniqueKeyWithoutTheDistributionColumnFails) {
  Exec("CREATE UNIQUE INDEX holds_by_pod_device ON holds (pod_uid, device_id, held_from)");
  Exec(
      "ALTER TABLE devices ADD CONSTRAINT devices_one_period EXCLUDE USING gist "
      "(tstzrange(in_service_from, in_service_to) WITH &&)");
  const std::vector<std::string> problems = ReadinessProblems(*conn_, DistributionPlan());
  EXPECT_THAT(problems, Contains(AllOf(HasSubstr("distributed table holds: unique key holds_by_pod_device"),
                                       HasSubstr("lacks the distribution column cluster"))));
  EXPECT_THAT(problems, Contains(AllOf(HasSubstr("distributed table devices: unique key devices_one_period"),
                                       HasSubstr("lacks the distribution column cluster"))));
  EXPECT_EQ(problems.size(), 2u) << absl::StrJoin(problems, "\n");
}

TEST_F(DistributionPlanTest, ADistributionColumnThatMayBeNullOrDiffersInTypeFails) {
  Exec("ALTER TABLE usage_hour_changes ALTER COLUMN cluster DROP NOT NULL");
  Exec("ALTER TABLE telemetry_push_checkpoints ALTER COLUMN cluster TYPE varchar(253)");
  const std::vector<std::string> problems = ReadinessProblems(*conn_, DistributionPlan());
  EXPECT_THAT(problems, Contains(HasSubstr("distributed table usage_hour_changes: its distribution column cluster "
                                           "must be NOT NULL")));
  EXPECT_THAT(problems, Contains(AllOf(HasSubstr("distributed table telemetry_push_checkpoints"),
                                       HasSubstr("co-location group cluster is distributed by text"))));
  EXPECT_EQ(problems.size(), 2u) << absl::StrJoin(problems, "\n");
}

TEST_F(DistributionPlanTest, ForeignKeysWithinAShardPassAndAcrossShardsFail) {
  // On the distribution column to a co-located table: enforced on one shard.
  Exec("ALTER TABLE holds ADD CONSTRAINT holds_pod FOREIGN KEY (cluster, pod_uid) REFERENCES pods");
  EXPECT_THAT(ReadinessProblems(*conn_, DistributionPlan()), IsEmpty());

  // The same tables with the columns crossed: holds.cluster would meet pods.pod_uid.
  Exec("ALTER TABLE holds ADD CONSTRAINT holds_crossed FOREIGN KEY (pod_uid, cluster) REFERENCES pods");
  // A reference table (on every node) to a distributed one.
  Exec(
      "ALTER TABLE prices ADD CONSTRAINT prices_checkpoint FOREIGN KEY (cluster) "
      "REFERENCES telemetry_push_checkpoints");
  // A distributed table to one kept on the coordinator.
  Exec("ALTER TABLE quarantine ADD CONSTRAINT quarantine_audit FOREIGN KEY (id) REFERENCES audit_log");
  const std::vector<std::string> problems = ReadinessProblems(*conn_, DistributionPlan());
  EXPECT_THAT(problems, Contains(AllOf(HasSubstr("foreign key holds_crossed of distributed table holds"),
                                       HasSubstr("must match holds.cluster to pods.cluster"))));
  EXPECT_THAT(problems, Contains(AllOf(HasSubstr("foreign key prices_checkpoint of reference table prices to "
                                                 "distributed table telemetry_push_checkpoints"),
                                       HasSubstr("may refer only to reference tables"))));
  EXPECT_THAT(problems, Contains(AllOf(HasSubstr("foreign key quarantine_audit of distributed table quarantine to "
                                                 "coordinator-local table audit_log"),
                                       HasSubstr("only to reference tables or to tables of its own co-location"))));
  EXPECT_EQ(problems.size(), 3u) << absl::StrJoin(problems, "\n");
}

}  // namespace
}  // namespace fleetcap::store

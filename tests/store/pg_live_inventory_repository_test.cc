// PgLiveInventoryRepository keeps the same contract as the in-memory fake, on
// a fresh database per test, and writes what the fleet summary reads.

#include "store/pg_live_inventory_repository.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "pqxx/pqxx"
#include "store/cluster_inventory_changes.h"
#include "store/live_inventory_contract.h"
#include "store/memory_live_inventory_repository.h"
#include "store/pg_quarantine_repository.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

class PgLiveInventoryTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    repo_ = std::make_unique<PgLiveInventoryRepository>(pool());
  }
  LiveInventoryRepository& repo() { return *repo_; }

  std::unique_ptr<PgLiveInventoryRepository> repo_;
};

FLEETCAP_LIVE_INVENTORY_CONTRACT_TESTS(PgLiveInventoryTest)

TEST_F(PgLiveInventoryTest, TheFleetSummaryReadsWhatWasWritten) {
  ASSERT_THAT(repo_->Apply(contract::FirstSight()), IsOk());
  auto at = repo_->SummarizeAt("live", contract::T(5));
  ASSERT_THAT(at, IsOk());
  EXPECT_EQ(*at, (std::vector<ModelCount>{{"H100", 2, 2000}}));
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  EXPECT_EQ(txn.exec("SELECT team FROM workloads WHERE kind = 'Job' AND name = 'train'")[0][0].as<std::string>(),
            "vision");
}

// A batch analyzes each table it writes that was never analyzed, or that it
// grows by half or more: its later merges and triggers, and the reads after
// it, are planned for tables of the size they have.
TEST_F(PgLiveInventoryTest, ABatchGivesThePlannerStatisticsOfTheTablesItGrows) {
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  const char* const kTables = "ARRAY['nodes', 'devices', 'workloads', 'pods', 'holds', 'pending_demand']";
  // Never analyzed (reltuples -1) but by the batch, whatever autovacuum does meanwhile.
  txn.exec(
      absl::StrCat("DO $$ DECLARE t text; BEGIN FOREACH t IN ARRAY ", kTables,
                   " LOOP EXECUTE format('ALTER TABLE %I SET (autovacuum_enabled = false)', t); END LOOP; END $$"));
  const std::string never_analyzed =
      absl::StrCat("SELECT coalesce(string_agg(relname, ',' ORDER BY relname), '') FROM pg_class WHERE relname = ANY(",
                   kTables, ") AND relkind = 'r' AND reltuples < 0");
  ASSERT_EQ(txn.exec(never_analyzed)[0][0].as<std::string>(), "devices,holds,nodes,pending_demand,pods,workloads");
  const ClusterInventory inventory = TestInventory();  // holds no waits
  ASSERT_THAT(repo_->Apply(ChangesOf(inventory)), IsOk());
  EXPECT_EQ(txn.exec(never_analyzed)[0][0].as<std::string>(), "pending_demand");
  EXPECT_GT(txn.exec("SELECT count(*) FROM pg_stats WHERE tablename = 'holds'")[0][0].as<int>(), 0);
  EXPECT_EQ(txn.exec("SELECT reltuples FROM pg_class WHERE relname = 'holds'")[0][0].as<double>(),
            static_cast<double>(inventory.holds.size()));

  // A batch that adds less than half of what a table had, and fewer than 100 rows, leaves its statistics.
  const std::string holds_analyzed = "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'holds'";
  const std::string before = txn.exec(holds_analyzed)[0][0].as<std::string>();
  ClusterInventory more = TestInventory();
  more.cluster = "c2";
  ASSERT_THAT(repo_->Apply(ChangesOf(more)), IsOk());
  EXPECT_EQ(txn.exec(holds_analyzed)[0][0].as<std::string>(), before);
}

// A lookup of open rows one key at a time (the fleet_now triggers, who holds
// devices now) probes one row per key whatever the planner's statistics:
// no B-tree index on a part of the inventory is keyed by the cluster alone
// (migration 0035), where a nested loop would filter the cluster's rows.
TEST_F(PgLiveInventoryTest, PartialIndexesOfTheInventoryAreKeyedBeyondTheCluster) {
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  auto rows = txn.exec(
      "SELECT i.indexrelid::regclass::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
      "JOIN pg_am a ON a.oid = c.relam WHERE i.indpred IS NOT NULL AND a.amname = 'btree' AND i.indnkeyatts < 2 "
      "AND i.indrelid::regclass::text IN ('nodes', 'devices', 'pods', 'holds', 'pending_demand')");
  for (const auto& row : rows) ADD_FAILURE() << row[0].as<std::string>() << " is keyed by one column";
  EXPECT_GT(txn.exec("SELECT count(*) FROM pg_indexes WHERE indexname IN ('nodes_open', 'devices_open', "
                     "'pods_live_holders', 'holds_open')")[0][0]
                .as<int>(),
            3);
}

TEST_F(PgLiveInventoryTest, SummariesAgreeWithTheFakeAtEveryQuarterHour) {
  MemoryLiveInventoryRepository fake;
  ASSERT_THAT(fake.Apply(ChangesOf(TestInventory())), IsOk());
  ASSERT_THAT(repo_->Apply(ChangesOf(TestInventory())), IsOk());
  for (int quarter = -1; quarter <= 16; ++quarter) {
    const absl::Time at = TestT0() + absl::Minutes(15 * quarter);
    for (const std::string cluster : {"c1", ""}) {
      auto want = fake.SummarizeAt(cluster, at);
      auto got = repo_->SummarizeAt(cluster, at);
      ASSERT_THAT(got, IsOk());
      EXPECT_EQ(*got, *want) << "quarter " << quarter << " cluster '" << cluster << "'";
    }
  }
}

TEST_F(PgLiveInventoryTest, ARecordedHistoryIsStoredVerbatimAndABadOneChangesNothing) {
  ClusterInventory inventory = TestInventory();
  inventory.pods[0].namespace_name = "'; DROP TABLE pods; --";
  inventory.pods[0].team = "team\twith\\tab\nand newline";
  ASSERT_THAT(repo_->Apply(ChangesOf(inventory)), IsOk());
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  auto row = txn.exec("SELECT namespace, team FROM pods WHERE pod_uid = 'whole'")[0];
  EXPECT_EQ(row[0].as<std::string>(), inventory.pods[0].namespace_name);
  EXPECT_EQ(row[1].as<std::string>(), inventory.pods[0].team);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM workloads WHERE cluster = 'c1'")[0][0].as<int>(), 3);
  EXPECT_TRUE(txn.exec("SELECT held_to FROM holds WHERE pod_uid = 'share'")[0][0].is_null());

  // An invalid record is refused before anything of its batch is stored.
  ClusterInventory bad = TestInventory();
  bad.cluster = "c2";
  bad.holds.push_back({"whole", "t4-0", 2000, TestT0(), std::nullopt});
  EXPECT_EQ(repo_->Apply(ChangesOf(bad)).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM holds WHERE cluster = 'c2'")[0][0].as<int>(), 0);
  EXPECT_EQ(txn.exec("SELECT count(*) FROM devices WHERE cluster = 'c2'")[0][0].as<int>(), 0);
}

TEST_F(PgLiveInventoryTest, NamespaceLabelsAreReplacedWhole) {
  InventoryChanges c;
  c.cluster = "live";
  c.namespaces = {{"ml", {{"fleetcap.io/team", "vision"}}, {{"owner", "speech"}}}};
  ASSERT_THAT(repo_->Apply(c), IsOk());
  c.namespaces = {{"ml", {}, {{"owner", "shop"}}}};
  ASSERT_THAT(repo_->Apply(c), IsOk());
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  auto rows = txn.exec("SELECT namespace, source, key, value FROM namespace_labels WHERE cluster = 'live'");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][1].as<std::string>(), "annotation");
  EXPECT_EQ(rows[0][3].as<std::string>(), "shop");
}

TEST_F(PgLiveInventoryTest, TheActivePolicyIsTheNewestVersion) {
  auto none = repo_->ActivePolicy();
  ASSERT_THAT(none, IsOk());
  EXPECT_EQ(none->version, 0);
  auto conn = db_->Connect();
  pqxx::nontransaction txn(*conn);
  txn.exec(
      "INSERT INTO policies (version, document, applied_by) VALUES (1, 'version: 1', 'test'), "
      "(2, 'version: 1\nteams: []\n', 'test')");
  auto active = repo_->ActivePolicy();
  ASSERT_THAT(active, IsOk());
  EXPECT_EQ(active->version, 2);
  EXPECT_EQ(active->document, "version: 1\nteams: []\n");
}

TEST_F(PgLiveInventoryTest, ALargeBatchIsOneTransaction) {
  InventoryChanges c;
  c.cluster = "live";
  c.types = {{"T4", "nvidia", "nvidia.com/gpu"}};
  for (int n = 0; n < 200; ++n) {
    const std::string node = "node-" + std::to_string(n);
    c.nodes.push_back({{node, "", 0, 0, contract::T(0), std::nullopt}, ""});
    for (int g = 0; g < 4; ++g) {
      c.devices.push_back({node + "/gpu" + std::to_string(g), node, g, "T4", contract::T(0), std::nullopt});
    }
    for (int p = 0; p < 20; ++p) {
      const std::string uid = node + "-pod-" + std::to_string(p);
      c.pods.push_back(
          {{uid, "ns", uid, "t", "Pod", uid, "Running", contract::T(0), contract::T(1), std::nullopt, 200, false},
           node});
      c.holds.push_back({uid, node + "/gpu" + std::to_string(p % 4), 200, contract::T(1), std::nullopt});
    }
  }
  ASSERT_THAT(repo_->Apply(c), IsOk());
  auto at = repo_->SummarizeAt("live", contract::T(2));
  ASSERT_THAT(at, IsOk());
  EXPECT_EQ(*at, (std::vector<ModelCount>{{"T4", 800, 800000}}));
  auto live = repo_->LoadLive("live");
  ASSERT_THAT(live, IsOk());
  EXPECT_EQ(live->pods.size(), 4000u);
  EXPECT_EQ(live->holds.size(), 4000u);
}

// A value PostgreSQL cannot hold is the record's fault (INVALID_ARGUMENT, so
// the writer sets it aside), not an outage to retry; quarantine records are
// stored in the batch's own transaction.
TEST_F(PgLiveInventoryTest, AValueTheDatabaseCannotHoldIsRefusedAndSetAsideRecordsTravelWithTheBatch) {
  InventoryChanges year_zero = contract::FirstSight();
  year_zero.pods[0].pod.created = absl::FromCivil(absl::CivilSecond(0, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  const absl::Status refused = repo_->Apply(year_zero);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_TRUE(repo_->LoadLive("live")->holds.empty());

  InventoryChanges with_aside = contract::FirstSight();
  with_aside.quarantine = {{0, "k8s", "live", "Pod ml/x uid=x", "refused", std::string("a\0b", 3), contract::T(9)}};
  ASSERT_THAT(repo_->Apply(with_aside), IsOk());
  EXPECT_EQ(repo_->LoadLive("live")->holds.size(), 2u);
  PgQuarantineRepository quarantine(pool());
  auto aside = quarantine.List("k8s", "live", 10);
  ASSERT_THAT(aside, IsOk());
  ASSERT_EQ(aside->size(), 1u);
  EXPECT_EQ((*aside)[0].object_key, "Pod ml/x uid=x");
  EXPECT_EQ((*aside)[0].payload, "a\\x00b");
  EXPECT_EQ((*aside)[0].at, contract::T(9));
}

}  // namespace
}  // namespace fleetcap::store

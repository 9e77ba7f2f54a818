// `fleetcap-ingest replay --trace openb` on the published trace, end to end
// into PostgreSQL, checked against an independent placement computed here
// from the CSV files with the contract's words and nothing else.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_inventory.h"
#include "tests/support/stored_quarantine.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"

namespace fleetcap {
namespace {

const std::string kData = std::string(fleetcap::testing::kSharedDataDir) + "/openb";
constexpr char kStart[] = "2026-01-01T00:00:00Z";

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using Row = std::map<std::string, std::string>;

std::vector<Row> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header = absl::StrSplit(line, ',');
  std::vector<Row> rows;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> cells = absl::StrSplit(line, ',');
    Row row;
    for (size_t i = 0; i < header.size(); ++i) row[header[i]] = i < cells.size() ? cells[i] : "";
    rows.push_back(row);
  }
  return rows;
}

struct Hold {
  std::string model;
  int64_t milli, start, end;
};

struct Independent {
  std::vector<Hold> holds;
  int unplaced = 0;
};

// The next-fit contract, written plainly: events by (time, release first,
// pod name); search from the node after the last placement, in name order.
Independent PlaceIndependently(std::vector<Row> nodes, const std::vector<Row>& pods) {
  std::sort(nodes.begin(), nodes.end(), [](const Row& a, const Row& b) { return a.at("sn") < b.at("sn"); });
  std::vector<std::vector<int64_t>> free(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) free[n].assign(std::stoi(nodes[n].at("gpu")), 1000);
  struct Event {
    int64_t t;
    int kind;  // 0 release, 1 place
    std::string pod;
    const Row* row;
  };
  std::vector<Event> events;
  Independent out;
  for (const auto& p : pods) {
    if (std::stoi(p.at("num_gpu")) == 0) continue;
    if (p.at("scheduled_time").empty()) {
      ++out.unplaced;
      continue;
    }
    events.push_back({std::stoll(p.at("scheduled_time")), 1, p.at("name"), &p});
    events.push_back({std::stoll(p.at("deletion_time")), 0, p.at("name"), &p});
  }
  std::sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return std::tie(a.t, a.kind, a.pod) < std::tie(b.t, b.kind, b.pod); });
  std::map<std::string, std::vector<std::pair<size_t, size_t>>> taken;  // pod -> (node, gpu)
  std::map<std::string, int64_t> share_of;
  size_t next = 0;
  for (const auto& e : events) {
    const int k = std::stoi(e.row->at("num_gpu"));
    const int64_t milli = std::stoll(e.row->at("gpu_milli"));
    if (e.kind == 0) {
      for (auto [n, g] : taken[e.pod]) free[n][g] += milli;
      taken.erase(e.pod);
      continue;
    }
    bool placed = false;
    for (size_t step = 0; step < nodes.size() && !placed; ++step) {
      const size_t n = (next + step) % nodes.size();
      std::vector<size_t> gpus;
      for (size_t g = 0; g < free[n].size() && static_cast<int>(gpus.size()) < k; ++g) {
        if (milli == 1000 ? free[n][g] == 1000 : free[n][g] >= milli) gpus.push_back(g);
      }
      if (static_cast<int>(gpus.size()) < k) continue;
      for (size_t g : gpus) {
        free[n][g] -= milli;
        taken[e.pod].push_back({n, g});
        out.holds.push_back({nodes[n].at("model"), milli, e.t, std::stoll(e.row->at("deletion_time"))});
      }
      next = n + 1;
      placed = true;
    }
    if (!placed) ++out.unplaced;
  }
  return out;
}

class OpenbReplayTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!std::filesystem::exists(kData + "/openb_node_list_gpu_node.csv")) return;
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = db->release();
    replay_ =
        new testing::RunResult(testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "openb", "--data",
                                             kData, "--cluster", "openb", "--start", kStart, "--db", db_->uri()}));
  }
  static void TearDownTestSuite() {
    delete replay_;
    delete db_;
  }
  void SetUp() override {
    if (db_ == nullptr) GTEST_SKIP() << "published openb trace not found at " << kData;
    ASSERT_EQ(replay_->exit_code, 0) << replay_->err;
  }
  static testing::TestDatabase* db_;
  static testing::RunResult* replay_;
};
testing::TestDatabase* OpenbReplayTest::db_ = nullptr;
testing::RunResult* OpenbReplayTest::replay_ = nullptr;

TEST_F(OpenbReplayTest, StoresEveryNodeAndGpuByModel) {
  auto conn = db_->Connect();
  const auto of_openb = [](const auto& row) { return row.cluster == "openb"; };
  EXPECT_EQ(testing::RowsWhere(testing::StoredNodes(*conn), of_openb).size(), 1213u);
  const std::vector<testing::StoredDevice> devices = testing::StoredDevices(*conn);
  EXPECT_EQ(testing::RowsWhere(devices, of_openb).size(), 6212u);
  std::map<std::string, std::set<std::string>> model_nodes;
  for (const auto& d : devices) model_nodes[d.model].insert(d.node);
  std::map<std::string, int> nodes_by_model;
  for (const auto& [model, nodes] : model_nodes) nodes_by_model[model] = static_cast<int>(nodes.size());
  EXPECT_EQ(nodes_by_model,
            (std::map<std::string, int>{
                {"A10", 2}, {"G2", 549}, {"G3", 39}, {"P100", 134}, {"T4", 404}, {"V100M16", 55}, {"V100M32", 30}}));
  const std::vector<testing::StoredPod> pods = testing::StoredPods(*conn);
  EXPECT_EQ(testing::RowsWhere(pods, of_openb).size(), 8152u);
  // Teams: openb-pod-NNNN belongs to team-(NNNN mod 12), in its own namespace.
  const auto pod = testing::RowsWhere(pods, [](const testing::StoredPod& p) { return p.name == "openb-pod-0037"; });
  ASSERT_FALSE(pod.empty());
  EXPECT_EQ(pod[0].team, "team-01");
  EXPECT_EQ(pod[0].namespace_, "team-01");
  std::set<std::string> teams;
  for (const auto& p : pods) teams.insert(p.team);
  EXPECT_EQ(teams.size(), 12u);
  EXPECT_THAT(replay_->out, HasSubstr("1213 nodes, 6212 devices, 8152 pods"));
}

TEST_F(OpenbReplayTest, HeldMilliDevicesMatchAnIndependentPlacement) {
  auto nodes = ReadCsv(kData + "/openb_node_list_gpu_node.csv");
  auto pods = ReadCsv(kData + "/openb_pod_list_default.csv");
  const Independent truth = PlaceIndependently(nodes, pods);

  auto conn = db_->Connect();
  EXPECT_EQ(static_cast<int>(
                testing::RowsWhere(testing::StoredPods(*conn), [](const testing::StoredPod& p) { return p.unplaced; })
                    .size()),
            truth.unplaced);
  EXPECT_EQ(testing::StoredHolds(*conn).size(), truth.holds.size());

  auto pool = PgPool::Open(db_->uri(), 1);
  ASSERT_THAT(pool, IsOk());
  store::PgLiveInventoryRepository repo(pool->get());
  const absl::Time start = *ParseRfc3339("start", kStart);
  int64_t busiest = 0;
  for (int64_t second :
       {int64_t{0}, int64_t{427061}, int64_t{1000000}, int64_t{5000000}, int64_t{9000000}, int64_t{10001278},
        int64_t{12000000}, int64_t{12537496}, int64_t{12902959}, int64_t{12902960}, int64_t{20000000}}) {
    std::map<std::string, int64_t> want;
    for (const auto& h : truth.holds) {
      if (h.start <= second && second < h.end) want[h.model] += h.milli;
    }
    auto summary = repo.SummarizeAt("openb", start + absl::Seconds(second));
    ASSERT_THAT(summary, IsOk());
    int64_t devices = 0;
    for (const auto& m : *summary) {
      EXPECT_EQ(m.held_milli, want[m.model]) << m.model << " at second " << second;
      devices += m.devices;
      busiest = std::max(busiest, m.held_milli);
    }
    EXPECT_EQ(devices, 6212) << "at second " << second;
  }
  EXPECT_GT(busiest, 0) << "no instant checked had any GPU held";
}

TEST_F(OpenbReplayTest, EveryModelsNodesShareTheProductLabelAKueueFlavorSelects) {
  auto pool = PgPool::Open(db_->uri(), 1);
  ASSERT_THAT(pool, IsOk());
  store::PgLiveInventoryRepository repo(pool->get());
  auto live = repo.LoadLive("openb");
  ASSERT_THAT(live, IsOk());
  int labelled = 0;
  for (const store::LiveNode& node : live->nodes) {
    if (node.model_label_key.empty()) continue;
    ++labelled;
    EXPECT_EQ(node.model_label_key, "nvidia.com/gpu.product") << node.node.name;
    EXPECT_EQ(node.model_label_value, node.node.pool) << node.node.name;  // pool = model in the replay
    EXPECT_EQ(node.pool_label_key, "") << node.node.name;
  }
  EXPECT_EQ(labelled, 1213);  // every node of the GPU list has GPUs
  // What the API reads for each demo flavor (docs/examples/openb-policy.yaml: pool = model, cluster openb).
  for (const std::string model : {"A10", "G2", "G3", "P100", "T4", "V100M16", "V100M32"}) {
    auto labels = repo.SharedNodeLabels(model, model, "openb");
    ASSERT_THAT(labels, IsOk());
    EXPECT_EQ(*labels, (std::map<std::string, std::string>{{"nvidia.com/gpu.product", model}})) << model;
  }
}

TEST_F(OpenbReplayTest, ReplayingAgainStoresTheSameFacts) {
  auto again = testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "openb", "--data", kData, "--cluster",
                             "openb", "--start", kStart, "--db", db_->uri()});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, replay_->out);
  auto conn = db_->Connect();
  EXPECT_EQ(testing::StoredDevices(*conn).size(), 6212u);
  EXPECT_EQ(testing::StoredClusters(*conn).size(), 1u);
}

TEST(OpenbReplayErrors, MissingDataAndBadFlagsAreOneLineErrors) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  auto missing = testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "openb", "--data",
                               "/nonexistent/openb", "--cluster", "x", "--db", (*db)->uri()});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_THAT(missing.err, HasSubstr("/nonexistent/openb")) << missing.err;

  auto bad_start = testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "openb", "--data", kData,
                                 "--start", "last tuesday", "--db", (*db)->uri()});
  EXPECT_EQ(bad_start.exit_code, 2);
  EXPECT_THAT(bad_start.err, HasSubstr("--start")) << bad_start.err;

  auto bad_trace = testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "borg", "--data", kData});
  EXPECT_EQ(bad_trace.exit_code, 2);
  EXPECT_THAT(bad_trace.err, HasSubstr("--trace")) << bad_trace.err;
}

// One malformed row of a trace costs only itself: it is set aside in the
// quarantine (source "replay") and the rest of the trace is replayed.
TEST(OpenbReplayErrors, AMalformedRowIsSetAsideAndTheRestReplayed) {
  auto db = testing::TestDatabase::Migrated();
  ASSERT_THAT(db, IsOk());
  const testing::TestDir trace("replay-test");
  const std::string& dir = trace.path();
  std::ofstream(dir + "/openb_node_list_gpu_node.csv") << "sn,cpu_milli,memory_mib,gpu,model\n"
                                                          "node-a,96000,393216,8,G2\n"
                                                          "node-b,lots,393216,8,G2\n";
  std::ofstream(dir + "/openb_pod_list_default.csv")
      << "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,"
         "scheduled_time\n"
         "p0,1000,1024,1,1000,,LS,Running,0,100,0\n"
         "p1,1000,1024,x,1000,,LS,Running,0,100,0\n"
         "p2,1000,1024,2,1000,,LS,Running,10,100,10\n"
         "p3,1000,1024,1,1000,,LS,Running,99999999999999,,\n";  // a time the store cannot hold
  auto run = testing::Run({fleetcap::testing::kIngestBin, "replay", "--trace", "openb", "--data", dir, "--cluster",
                           "small", "--start", kStart, "--db", (*db)->uri()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("3 holds, 3 malformed rows set aside"));
  auto conn = (*db)->Connect();
  EXPECT_EQ(testing::StoredDevices(*conn).size(), 8u);
  EXPECT_EQ(testing::StoredPods(*conn).size(), 2u);
  auto aside = testing::QuarantinedRecords((*db)->uri());
  std::sort(aside.begin(), aside.end(), [](const store::QuarantineRecord& a, const store::QuarantineRecord& b) {
    return a.object_key < b.object_key;
  });
  ASSERT_EQ(aside.size(), 3u);
  EXPECT_EQ(aside[0].source, "replay");
  EXPECT_EQ(aside[0].cluster, "small");
  EXPECT_EQ(aside[0].object_key, "openb_node_list_gpu_node.csv:3");
  EXPECT_THAT(aside[0].reason, HasSubstr("cpu_milli"));
  EXPECT_EQ(aside[0].payload, "node-b,lots,393216,8,G2");
  EXPECT_EQ(aside[1].object_key, "openb_pod_list_default.csv:3");
  EXPECT_THAT(aside[1].reason, HasSubstr("num_gpu"));
  EXPECT_EQ(aside[2].object_key, "openb_pod_list_default.csv:5");
  EXPECT_THAT(aside[2].reason, HasSubstr("creation_time"));
}

TEST(OpenbReplayErrors, OlderSchemaWithoutMigrateNamesTheMissingMigrations) {
  auto db = testing::TestDatabase::Empty();
  ASSERT_THAT(db, IsOk());
  auto refused = testing::Run(
      {fleetcap::testing::kIngestBin, "replay", "--trace", "openb", "--data", kData, "--db", (*db)->uri()});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.err, HasSubstr("missing migrations 0001_schema_v1")) << refused.err;
}

}  // namespace
}  // namespace fleetcap

// Several fleetcap-optimizer instances sharing the chargeback by cluster
// (docs/scaling.md, "The optimizer shares work by cluster"): the real binary,
// three instances at once on a real PostgreSQL over three clusters' history,
// must store exactly the rows one instance alone stores in a second database,
// each cluster hour computed once; and with one instance SIGKILLed in the
// middle of a cluster, the others finish its cluster with the same rows.

#include <signal.h>

#include <map>
#include <memory>
#include <regex>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "store/pg_control_repositories.h"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_chargeback.h"
#include "tests/support/subprocess.h"
#include "tests/support/table_rows.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::TableRows;
using ::testing::HasSubstr;

// Two teams, a price per cluster, idle shared by charge, and two fixed
// monthly costs that do not divide into whole micro-units an hour: the fixed
// lines are spread over the teams of all three clusters.
constexpr const char* kPolicy = R"(version: 1
teams:
  - name: research
  - name: product
namespaces:
  - namespace: ml
    team: research
  - namespace: web
    team: product
prices:
  - model: H100
    from: 2025-01-01T00:00:00Z
    per_device_hour: "3.60"
  - model: H100
    cluster: west
    from: 2025-01-01T00:00:00Z
    per_device_hour: "2.95"
attribution:
  fixed_monthly_costs:
    - name: support
      amount: "12345.67"
    - name: network
      amount: "0.05"
)";

const char* const kClusters[] = {"east", "north", "west"};
constexpr int kHistoryHours = 120;  // five days: long enough that a cluster pass is killed in its middle

// The tables the optimizer writes, compared row by row.
const char* const kTables[] = {"chargeback_hourly",        "chargeback_hourly_by_team", "chargeback_daily",
                               "chargeback_daily_by_team", "chargeback_monthly",        "chargeback_over_held",
                               "chargeback_watermarks",    "chargeback_recompute"};

absl::Time HourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

store::LivePod APod(const std::string& uid, const std::string& ns, const std::string& workload, absl::Time at) {
  return {{uid, ns, uid + "-pod", "", "Job", workload, "Running", at, at, std::nullopt, 1000, false}, "node-a"};
}

// Cluster `index`'s history from `h0`: four GPUs on two nodes, pods of both
// teams coming and going, a device that arrives late and one that leaves,
// an over-held GPU for an hour.
store::InventoryChanges ClusterHistory(int index, absl::Time h0) {
  const auto at = [&](int minutes) { return h0 + absl::Minutes(minutes + 7 * index); };
  store::InventoryChanges c;
  c.cluster = kClusters[index];
  c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
  c.nodes = {{{"node-a", "", 0, 0, h0, std::nullopt}, ""}, {{"node-b", "", 0, 0, h0, std::nullopt}, ""}};
  c.devices = {{"GPU-0", "node-a", 0, "H100", h0, std::nullopt},
               {"GPU-1", "node-a", 1, "H100", h0, std::nullopt},
               {"GPU-2", "node-b", 0, "H100", at(600), std::nullopt},
               {"GPU-3", "node-b", 1, "H100", h0, at(3000)}};
  c.pods = {APod("train", "ml", "train", h0), APod("serve", "web", "serve", h0), APod("eval", "ml", "eval", at(120)),
            APod("batch", "web", "batch", at(900))};
  c.pods[3].node = "node-b";
  c.holds = {{"train", "GPU-0", 1000, h0, std::nullopt},
             {"serve", "GPU-1", 250 + 125 * index, h0, at(5000)},
             {"eval", "GPU-1", 500, at(120), at(2400)},
             {"eval", "GPU-0", 400, at(300), at(360)},  // GPU-0 over-held for an hour
             {"batch", "GPU-2", 1000, at(900), std::nullopt},
             {"batch", "GPU-3", 333, at(900), at(2900)}};
  return c;
}

class OptimizerSharingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    h0_ = HourOf(RealClock::Instance()->Now()) - absl::Hours(kHistoryHours);
    for (auto* db : {&shared_, &alone_}) {
      auto migrated = testing::TestDatabase::Migrated();
      ASSERT_THAT(migrated, IsOk());
      *db = std::move(*migrated);
      ASSERT_NO_FATAL_FAILURE(WriteFleet(**db));
    }
  }

  void WriteFleet(const testing::TestDatabase& db) {
    auto pool = PgPool::Open(db.uri(), 2);
    ASSERT_THAT(pool, IsOk());
    store::PgLiveInventoryRepository inventory(pool->get());
    for (int i = 0; i < 3; ++i) ASSERT_THAT(inventory.Apply(ClusterHistory(i, h0_)), IsOk());
    store::PgPolicyRepository policies(pool->get());
    store::PolicyVersionRecord policy;
    policy.document = kPolicy;
    policy.applied_by = "test";
    store::AuditEntry audit;
    audit.actor = "test";
    audit.action = "policy.apply";
    ASSERT_THAT(policies.Apply(policy, std::nullopt, audit), IsOk());
  }

  static std::vector<std::string> Optimizer(const testing::TestDatabase& db, std::vector<std::string> args) {
    std::vector<std::string> argv = {
        fleetcap::testing::kOptimizerBin, "--db", db.uri(), "--close-delay", "0s", "--batch-hours", "1"};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }

  // Every cluster's watermark and the fleet's, by cluster ("" the fleet's).
  static std::map<std::string, absl::Time> Watermarks(const testing::TestDatabase& db) {
    auto conn = db.Connect();
    std::map<std::string, absl::Time> out;
    for (const auto& mark : testing::StoredChargebackWatermarks(*conn)) out[mark.cluster] = mark.through;
    return out;
  }

  // Whether every cluster and the fleet are computed up to the closed hour.
  static bool Caught(const testing::TestDatabase& db) {
    const absl::Time closed = HourOf(RealClock::Instance()->Now());
    const auto marks = Watermarks(db);
    if (marks.size() != 4) return false;
    for (const auto& [cluster, through] : marks) {
      if (through < closed) return false;
    }
    return true;
  }

  // The single instance's run, and the comparison. The hour can turn while
  // the test runs: whichever database is behind then gets one more pass of
  // a single instance, so that both end at the same hour.
  void ExpectSameRowsAsOneInstance() {
    for (int round = 0; round < 3 && Watermarks(*alone_) != Watermarks(*shared_); ++round) {
      for (const auto* db : {alone_.get(), shared_.get()}) {
        if (!Caught(*db)) {
          auto once = testing::Run(Optimizer(*db, {"--once"}), absl::Seconds(300));
          ASSERT_EQ(once.exit_code, 0) << once.err;
        }
      }
    }
    ASSERT_EQ(Watermarks(*alone_), Watermarks(*shared_));
    auto shared_conn = shared_->Connect();
    auto alone_conn = alone_->Connect();
    for (const char* table : kTables) {
      const std::string alone_rows = TableRows(*alone_conn, table);
      if (std::string(table) == "chargeback_hourly") {
        EXPECT_THAT(alone_rows, HasSubstr("\"fixed\""));
      }
      EXPECT_EQ(TableRows(*shared_conn, table), alone_rows) << table;
    }
  }

  // The instances, started at once, each serving /metrics.
  void StartInstances(int n) {
    for (int i = 0; i < n; ++i) {
      auto started =
          testing::Subprocess::Start(Optimizer(*shared_, {"--interval", "1s", "--metrics-listen", "127.0.0.1:0"}));
      ASSERT_THAT(started, IsOk());
      instances_.push_back(std::move(*started));
    }
    for (auto& instance : instances_) {
      auto line = instance->WaitForLine("fleetcap-optimizer: metrics on port ", absl::Seconds(60));
      ASSERT_THAT(line, IsOk()) << instance->Stderr();
      ports_.push_back(line->substr(std::string("fleetcap-optimizer: metrics on port ").size()));
    }
  }

  void WaitUntilCaught() {
    for (int i = 0; i < 1200 && !Caught(*shared_); ++i) RealClock::Instance()->SleepFor(absl::Milliseconds(250));
    ASSERT_TRUE(Caught(*shared_)) << instances_.back()->Stderr();
  }

  // `family`{cluster="..."} of instance `i`'s /metrics, by cluster.
  std::map<std::string, int64_t> PerCluster(size_t i, const std::string& family) {
    auto scraped = testing::HttpGet(absl::StrCat("http://127.0.0.1:", ports_[i], "/metrics"));
    EXPECT_THAT(scraped, IsOk());
    std::map<std::string, int64_t> out;
    if (!scraped.ok()) return out;
    const std::regex line(family + R"re(\{cluster="([^"]+)"\} ([0-9.e+]+))re");
    for (std::sregex_iterator it(scraped->body.begin(), scraped->body.end(), line), end; it != end; ++it) {
      double value = 0;
      EXPECT_TRUE(absl::SimpleAtod((*it)[2].str(), &value));
      out[(*it)[1].str()] = static_cast<int64_t>(value);
    }
    return out;
  }

  // Ends the instances still running (a killed one is gone already).
  void StopInstances() {
    for (auto& instance : instances_) {
      if (instance == nullptr) continue;
      const testing::RunResult stopped = instance->Stop(SIGTERM);
      EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
    }
  }

  absl::Time h0_;
  std::unique_ptr<testing::TestDatabase> shared_, alone_;
  std::vector<std::unique_ptr<testing::Subprocess>> instances_;
  std::vector<std::string> ports_;
};

TEST_F(OptimizerSharingTest, ThreeInstancesStoreTheRowsOfOneAndComputeEachClusterHourOnce) {
  auto alone = testing::Run(Optimizer(*alone_, {"--once"}), absl::Seconds(300));
  ASSERT_EQ(alone.exit_code, 0) << alone.err;

  ASSERT_NO_FATAL_FAILURE(StartInstances(3));
  ASSERT_NO_FATAL_FAILURE(WaitUntilCaught());

  // Which instance did which cluster: every cluster hour of the history was
  // computed by exactly one instance, and the work was divided.
  std::map<std::string, int64_t> hours_by_cluster;
  int working = 0;
  for (size_t i = 0; i < instances_.size(); ++i) {
    const auto hours = PerCluster(i, "fleetcap_optimizer_cluster_hours_computed_total");
    int64_t mine = 0;
    for (const auto& [cluster, n] : hours) {
      hours_by_cluster[cluster] += n;
      mine += n;
    }
    if (mine > 0) ++working;
    for (const auto& [cluster, n] : PerCluster(i, "fleetcap_optimizer_cluster_passes_total")) {
      if (hours.count(cluster) > 0 && hours.at(cluster) > 0) {
        EXPECT_GT(n, 0) << cluster;
      }
    }
  }
  const int64_t closed_hours = (Watermarks(*shared_).at("") - h0_) / absl::Hours(1);
  for (const char* cluster : kClusters) EXPECT_EQ(hours_by_cluster[cluster], closed_hours) << cluster;
  EXPECT_GE(working, 2) << "one instance did every cluster";

  StopInstances();
  ExpectSameRowsAsOneInstance();
}

TEST_F(OptimizerSharingTest, AnInstanceKilledInTheMiddleOfAClusterIsReplacedByTheOthers) {
  auto alone = testing::Run(Optimizer(*alone_, {"--once"}), absl::Seconds(300));
  ASSERT_EQ(alone.exit_code, 0) << alone.err;

  ASSERT_NO_FATAL_FAILURE(StartInstances(3));
  // The first instance's first batch of a cluster: kill it there.
  const std::regex batch(R"re(computed hours \[[^)]*\) of cluster (\w+))re");
  std::smatch match;
  std::string err;
  for (int i = 0; i < 600; ++i) {
    err = instances_[0]->Stderr();
    if (std::regex_search(err, match, batch)) break;
    RealClock::Instance()->SleepFor(absl::Milliseconds(20));
  }
  ASSERT_FALSE(match.empty()) << err;
  const std::string cluster = match[1].str();
  const testing::RunResult killed = instances_[0]->Stop(SIGKILL);
  EXPECT_EQ(killed.exit_code, 128 + SIGKILL);
  instances_[0].reset();
  const auto at_kill = Watermarks(*shared_);
  ASSERT_EQ(at_kill.count(cluster), 1u);
  ASSERT_LT(at_kill.at(cluster), HourOf(RealClock::Instance()->Now())) << "the cluster was done before the kill";

  ASSERT_NO_FATAL_FAILURE(WaitUntilCaught());
  // The survivors took the killed instance's cluster.
  int64_t survivors_hours = 0;
  for (size_t i = 1; i < instances_.size(); ++i) {
    survivors_hours += PerCluster(i, "fleetcap_optimizer_cluster_hours_computed_total")[cluster];
  }
  EXPECT_GT(survivors_hours, 0) << cluster;

  StopInstances();
  ExpectSameRowsAsOneInstance();
}

}  // namespace
}  // namespace fleetcap

// Ingest scales by cluster (docs/scaling.md): one fleetcap-ingest per
// cluster, all writing one store. Several clusters' ingests (k8s against
// their own fixture API servers; prometheus taking remote_write pushes) run
// at once into one database; the same ingests then run one after the other
// into another database. Every table a cluster's ingest writes must hold the
// same rows in both, compared row by row, less what the database fills in
// itself (now(), sequences).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "pqxx/pqxx"
#include "store/distribution_plan.h"
#include "tests/k8s/fixture/accelerator_zoo.h"
#include "tests/k8s/fixture/fake_api_server.h"
#include "tests/k8s/fixture/trace_cluster.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_inventory.h"
#include "tests/support/stored_usage.h"
#include "tests/support/subprocess.h"
#include "tests/support/table_rows.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"
#include "tests/support/trusted_shares.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::TableRows;

const absl::Time kT0 = absl::FromUnixSeconds(1767225600);  // 2026-01-01T00:00:00Z

// A cluster as its API server shows it; the objects stay unchanged for both
// runs, so the uids and creation times the server filled in are the same.
struct FixtureCluster {
  std::string name;
  std::unique_ptr<testing::FakeApiServer> api;
};

// The rows only one side has, a few of each, for a readable failure.
std::string RowDifference(const std::string& together, const std::string& one_by_one) {
  std::vector<std::string> a = absl::StrSplit(together, '\n');
  std::vector<std::string> b = absl::StrSplit(one_by_one, '\n');
  std::sort(a.begin(), a.end());  // the database sorted by its collation
  std::sort(b.begin(), b.end());
  std::vector<std::string> only_a, only_b;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a));
  std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b));
  if (only_a.size() > 5) only_a.resize(5);
  if (only_b.size() > 5) only_b.resize(5);
  return absl::StrCat(a.size(), " rows stored concurrently, ", b.size(), " sequentially\nonly concurrently:\n  ",
                      absl::StrJoin(only_a, "\n  "), "\nonly sequentially:\n  ", absl::StrJoin(only_b, "\n  "));
}

// The rows of `cluster` in each inventory table, by table.
std::map<std::string, size_t> InventoryRowsOf(pqxx::connection& conn, const std::string& cluster) {
  const auto of_cluster = [&](const auto& rows) {
    return testing::RowsWhere(rows, [&](const auto& row) { return row.cluster == cluster; }).size();
  };
  return {{"nodes", of_cluster(testing::StoredNodes(conn))},
          {"devices", of_cluster(testing::StoredDevices(conn))},
          {"pods", of_cluster(testing::StoredPods(conn))},
          {"holds", of_cluster(testing::StoredHolds(conn))}};
}

class MultiClusterIngestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One hand-written cluster of every accelerator kind, two synthetic
    // clusters with the openb trace's shapes.
    AddCluster("zoo", [](testing::FakeApiServer& api) {
      for (auto& [plural, object] : testing::ZooObjects(kT0)) api.Apply(plural, object);
    });
    for (uint64_t seed : {11, 12}) {
      AddCluster(absl::StrCat("synthetic-", seed), [seed](testing::FakeApiServer& api) {
        auto trace = testing::SyntheticTrace({/*nodes=*/60, /*pods=*/800, seed});
        testing::ApplyTimeline(api, testing::BuildTimeline(trace, kT0), absl::InfiniteFuture());
      });
    }
  }

  void AddCluster(const std::string& name, const std::function<void(testing::FakeApiServer&)>& fill) {
    testing::FakeApiOptions options;
    options.token = "token-" + name;
    auto api = testing::FakeApiServer::Start(options);
    ASSERT_THAT(api, IsOk());
    fill(**api);
    std::ofstream(dir_.path() + "/" + name + ".token") << options.token << "\n";
    clusters_.push_back(FixtureCluster{name, std::move(*api)});
  }

  std::vector<std::string> IngestArgs(const FixtureCluster& cluster, const std::string& db_uri) {
    return {fleetcap::testing::kIngestBin,
            "k8s",
            "--cluster",
            cluster.name,
            "--kube-api",
            cluster.api->url(),
            "--token-file",
            dir_.path() + "/" + cluster.name + ".token",
            "--db",
            db_uri,
            "--page-size",
            "50",
            "--flush-interval-ms",
            "20",
            "--exit-after-sync",
            "--metrics-listen",
            "127.0.0.1:0"};
  }

  // A migrated database that trusts GPU shares, as the fixtures' schedulers set them.
  std::unique_ptr<testing::TestDatabase> Database() {
    auto db = testing::TestDatabase::Migrated();
    EXPECT_THAT(db, IsOk());
    if (!db.ok()) return nullptr;
    testing::TrustGpuSharesEverywhere(*(*db)->Connect());
    return std::move(*db);
  }

  // Every table of the schema but the control plane's (and `skipped`): the
  // cluster-keyed facts and the shared ones the ingests insert into (clusters,
  // accelerator types), the same in both stores.
  void ExpectSameRows(pqxx::connection& together, pqxx::connection& one_by_one,
                      const std::set<std::string>& skipped = {}) {
    for (const store::PlannedTable& planned : store::DistributionPlan()) {
      if (planned.placement == store::TablePlacement::kCoordinatorLocal || skipped.count(planned.table) > 0) continue;
      const std::string together_rows = TableRows(together, planned.table);
      const std::string one_by_one_rows = TableRows(one_by_one, planned.table);
      EXPECT_TRUE(together_rows == one_by_one_rows)
          << "table " << planned.table << ": " << RowDifference(together_rows, one_by_one_rows);
    }
  }

  // kPushMinutes minutes of a DCGM exporter of `cluster` (4 GPUs on two nodes,
  // a pod on each of two, 15 s scrapes), one request a minute, in time order.
  static constexpr int kPushMinutes = 4;
  static absl::Status PushMinutes(const testing::IngestProcess& receiver, const std::string& cluster) {
    constexpr int64_t kStartMs = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
    for (int minute = 0; minute < kPushMinutes; ++minute) {
      std::vector<telemetry::RawSeries> series;
      for (int g = 0; g < 4; ++g) {
        telemetry::Labels labels = {{"UUID", absl::StrCat("GPU-", cluster, "-", g)},
                                    {"gpu", std::to_string(g % 2)},
                                    {"Hostname", absl::StrCat(cluster, "-node-", g / 2)},
                                    {"modelName", "NVIDIA A100-SXM4-80GB"}};
        if (g % 2 == 0) {
          labels.insert(labels.end(),
                        {{"pod", absl::StrCat("train-", g)}, {"namespace", cluster}, {"container", "main"}});
        }
        telemetry::RawSeries util{labels, {}}, power{labels, {}};
        util.labels.push_back({"__name__", "DCGM_FI_DEV_GPU_UTIL"});
        power.labels.push_back({"__name__", "DCGM_FI_DEV_POWER_USAGE"});
        for (int i = 0; i < 4; ++i) {
          const int64_t ts = kStartMs + (minute * 4 + i) * 15'000;
          util.points.push_back({ts, static_cast<double>((minute * 17 + i * 13 + g * 7) % 101)});
          power.points.push_back({ts, 100.0 + minute + g});
        }
        series.push_back(std::move(util));
        series.push_back(std::move(power));
      }
      auto posted = testing::PostRemoteWrite(receiver.write_url(), telemetry::EncodeRemoteWrite(series));
      if (!posted.ok()) return posted.status();
      if (posted->status != 204) {
        return absl::InternalError(absl::StrCat("remote_write answered ", posted->status, ": ", posted->body));
      }
    }
    return absl::OkStatus();
  }

  testing::TestDir dir_{"multi-cluster"};
  std::vector<FixtureCluster> clusters_;
};

TEST_F(MultiClusterIngestTest, ConcurrentIngestsOfSeveralClustersStoreWhatSequentialOnesStore) {
  ASSERT_EQ(clusters_.size(), 3u);
  auto together = Database();
  auto one_by_one = Database();
  ASSERT_NE(together, nullptr);
  ASSERT_NE(one_by_one, nullptr);

  // All at once into one store.
  std::vector<std::unique_ptr<testing::Subprocess>> running;
  for (const FixtureCluster& cluster : clusters_) {
    auto started = testing::Subprocess::Start(IngestArgs(cluster, together->uri()));
    ASSERT_THAT(started, IsOk());
    running.push_back(std::move(*started));
  }
  for (size_t i = 0; i < running.size(); ++i) {
    auto done = running[i]->Wait(absl::Seconds(120));
    ASSERT_EQ(done.exit_code, 0) << clusters_[i].name << ": " << done.err;
  }
  // One after the other into another.
  for (const FixtureCluster& cluster : clusters_) {
    auto done = testing::Run(IngestArgs(cluster, one_by_one->uri()));
    ASSERT_EQ(done.exit_code, 0) << cluster.name << ": " << done.err;
  }

  auto a = together->Connect();
  auto b = one_by_one->Connect();
  // Not an empty comparison: every cluster stored its inventory.
  for (const FixtureCluster& cluster : clusters_) {
    for (const auto& [table, rows] : InventoryRowsOf(*b, cluster.name)) {
      EXPECT_GT(rows, 0u) << table << " of " << cluster.name;
    }
  }
  ExpectSameRows(*a, *b);
}

// Three clusters' telemetry, pushed by remote_write to three receivers at
// once (one per cluster, as deployed), then to one receiver after another.
TEST_F(MultiClusterIngestTest, ConcurrentRemoteWritePushesOfSeveralClustersStoreWhatSequentialOnesStore) {
  const std::vector<std::string> clusters = {"push-a", "push-b", "push-c"};
  auto together = Database();
  auto one_by_one = Database();
  ASSERT_NE(together, nullptr);
  ASSERT_NE(one_by_one, nullptr);

  std::vector<testing::IngestProcess> receivers;
  for (const std::string& cluster : clusters) {
    auto started = testing::StartIngest(together->uri(), cluster);
    ASSERT_THAT(started, IsOk());
    receivers.push_back(std::move(*started));
  }
  std::vector<std::thread> pushers;
  std::vector<absl::Status> pushed(clusters.size());
  for (size_t i = 0; i < clusters.size(); ++i) {
    pushers.emplace_back([&, i] { pushed[i] = PushMinutes(receivers[i], clusters[i]); });
  }
  for (std::thread& t : pushers) t.join();
  for (size_t i = 0; i < clusters.size(); ++i) {
    ASSERT_THAT(pushed[i], IsOk()) << clusters[i];
    ASSERT_THAT(testing::WaitUntilPushWritten(receivers[i]), IsOk()) << clusters[i];
  }
  receivers.clear();

  for (const std::string& cluster : clusters) {
    auto receiver = testing::StartIngest(one_by_one->uri(), cluster);
    ASSERT_THAT(receiver, IsOk());
    ASSERT_THAT(PushMinutes(*receiver, cluster), IsOk()) << cluster;
    ASSERT_THAT(testing::WaitUntilPushWritten(*receiver), IsOk()) << cluster;
  }

  auto a = together->Connect();
  auto b = one_by_one->Connect();
  for (const std::string& cluster : clusters) {
    // Four devices and the two pods on them, every minute.
    EXPECT_EQ(testing::StoredMinutes(*b, cluster).size(), static_cast<size_t>((4 + 2) * kPushMinutes)) << cluster;
  }
  // Each receiver's checkpoint names its own sample log, a fresh one per run;
  // usage_hour_changes and usage_cluster_hour_changes gain a row per writing
  // statement, so they are compared by what they say: which hours of which
  // cluster wait for their rollup.
  ExpectSameRows(*a, *b, {"telemetry_push_checkpoints", "usage_hour_changes", "usage_cluster_hour_changes"});
  EXPECT_EQ(testing::HoursAwaitingRollup(*a), testing::HoursAwaitingRollup(*b));
  EXPECT_EQ(testing::HoursAwaitingRollup(*a, "usage_cluster_hour_changes"),
            testing::HoursAwaitingRollup(*b, "usage_cluster_hour_changes"));
  EXPECT_EQ(testing::HoursAwaitingRollup(*b, "usage_cluster_hour_changes"), testing::HoursAwaitingRollup(*b));
  const absl::Time hour = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01 00:00:00+00
  EXPECT_EQ(testing::HoursAwaitingRollup(*b),
            (std::vector<std::pair<std::string, absl::Time>>{{"push-a", hour}, {"push-b", hour}, {"push-c", hour}}));
}

}  // namespace
}  // namespace fleetcap

// PostgreSQL high availability, tested for real: a two-node Patroni cluster
// (tests/ha/patroni_cluster.sh) under fleetcap-ingest prometheus taking a
// steady remote_write load, fleetcap-ingest k8s following a fixture API
// server whose cluster changes, and fleetcap-api under read load. The primary
// is killed (Patroni and postmaster, SIGKILL), or handed over by a planned
// switchover. The standby must take over, every daemon must reconnect by
// itself (none is restarted), every acknowledged sample and inventory change
// must be stored exactly once (the tables equal those of the same run on a
// plain PostgreSQL without the failover), and the API must answer again
// within a bound; the time it took is printed.

#include <signal.h>
#include <algorithm>
#include <iterator>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "store/distribution_plan.h"
#include "tests/ha/patroni_cluster.h"
#include "tests/k8s/fixture/accelerator_zoo.h"
#include "tests/k8s/fixture/fake_api_server.h"
#include "tests/k8s/fixture/trace_cluster.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/pg_sessions.h"
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
constexpr int kPushMinutes = 40;                           // remote_write requests, one minute each
// How long the API may take to answer again after the primary is lost.
const absl::Duration kApiRecoveryBound = absl::Seconds(60);

// Tables that differ between two runs by design, not facts: the API's tokens
// (random secrets), the sample log's checkpoint (each log has its own id,
// and a push sent again is logged again) and the hours queued for the rollups
// (one row per write batch, so their number follows how minutes were batched).
const std::set<std::string> kBookkeeping = {"api_tokens", "telemetry_push_checkpoints", "usage_hour_changes",
                                            "usage_cluster_hour_changes"};

// The rows of cluster "ha" in `rows`.
template <typename T>
int64_t OfHa(const std::vector<T>& rows) {
  return static_cast<int64_t>(testing::RowsWhere(rows, [](const T& row) { return row.cluster == "ha"; }).size());
}

// One minute of a DCGM exporter (4 GPUs on two nodes, a pod on two of them,
// 15 s scrapes), the same bytes in every run.
std::string MinuteBody(int minute) {
  constexpr int64_t kStartMs = 1'767'225'600'000;  // 2026-01-01T00:00:00Z
  std::vector<telemetry::RawSeries> series;
  for (int g = 0; g < 4; ++g) {
    telemetry::Labels labels = {{"UUID", absl::StrCat("GPU-ha-", g)},
                                {"gpu", std::to_string(g % 2)},
                                {"Hostname", absl::StrCat("ha-node-", g / 2)},
                                {"modelName", "NVIDIA A100-SXM4-80GB"}};
    if (g % 2 == 0) labels.insert(labels.end(), {{"pod", absl::StrCat("train-", g)}, {"namespace", "ml"}});
    telemetry::RawSeries util{labels, {}};
    util.labels.push_back({"__name__", "DCGM_FI_DEV_GPU_UTIL"});
    for (int i = 0; i < 4; ++i) {
      util.points.push_back(
          {kStartMs + (minute * 4 + i) * 15'000, static_cast<double>((minute * 17 + i * 13 + g * 7) % 101)});
    }
    series.push_back(std::move(util));
  }
  return telemetry::EncodeRemoteWrite(series);
}

// Pushes every minute in order as Prometheus does: a request not answered
// 204 is sent again until it is (at most `patience`).
absl::Status PushAll(const testing::IngestProcess& ingest, absl::Duration patience) {
  const absl::Time deadline = absl::Now() + patience;
  for (int minute = 0; minute < kPushMinutes; ++minute) {
    const std::string body = MinuteBody(minute);
    while (true) {
      auto posted = testing::PostRemoteWrite(ingest.write_url(), body);
      if (posted.ok() && posted->status == 204) break;
      if (absl::Now() > deadline)
        return absl::DeadlineExceededError(absl::StrCat("minute ", minute, " never acknowledged"));
      absl::SleepFor(absl::Milliseconds(100));
    }
    absl::SleepFor(absl::Milliseconds(300));  // a steady load across the failover
  }
  return absl::OkStatus();
}

// GETs a fleet summary and an hour of usage in a loop; records when answers
// failed and when they came back.
class ReadLoad {
 public:
  explicit ReadLoad(const testing::ApiProcess& api) : api_(api), thread_([this] { Loop(); }) {}
  ~ReadLoad() {
    stop_ = true;
    thread_.join();
  }
  // The first instant at or after `t` at which a read succeeded (InfinitePast: none yet).
  absl::Time FirstSuccessAfter(absl::Time t) {
    std::lock_guard<std::mutex> lock(mu_);
    for (absl::Time s : successes_) {
      if (s >= t) return s;
    }
    return absl::InfinitePast();
  }
  int failures() const { return failures_.load(); }

 private:
  void Loop() {
    int i = 0;
    while (!stop_) {
      const std::string path =
          (i++ % 2 == 0) ? "/v1/fleet/summary"
                         : "/v1/usage?cluster=ha&start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z&resolution=hour";
      auto r = testing::HttpGet(api_.http_base() + path, api_.admin_token);
      if (r.ok() && r->status == 200) {
        std::lock_guard<std::mutex> lock(mu_);
        successes_.push_back(absl::Now());
      } else {
        ++failures_;
      }
      absl::SleepFor(absl::Milliseconds(50));
    }
  }

  const testing::ApiProcess& api_;
  std::atomic<bool> stop_{false};
  std::atomic<int> failures_{0};
  std::mutex mu_;
  std::vector<absl::Time> successes_;
  std::thread thread_;
};

class HaFailoverTest : public ::testing::Test {
 protected:
  // The k8s cluster: a synthetic cluster with the openb trace's shapes, the
  // same objects (and so the same uids) in every run.
  static std::unique_ptr<testing::FakeApiServer> StartKubeApi() {
    auto api = testing::FakeApiServer::Start({});
    EXPECT_THAT(api, IsOk());
    if (!api.ok()) return nullptr;
    auto trace = testing::SyntheticTrace({/*nodes=*/30, /*pods=*/300, /*seed=*/21});
    testing::ApplyTimeline(**api, testing::BuildTimeline(trace, kT0), absl::InfiniteFuture());
    return std::move(*api);
  }

  // Inventory changes made while the store is away: a node of every
  // accelerator kind and its pods join the cluster.
  static void ChangeInventory(testing::FakeApiServer& api) {
    for (auto& [plural, object] : testing::ZooObjects(kT0)) api.Apply(plural, object);
  }

  // What one run stored: every table an ingest writes, as text.
  struct Stored {
    std::vector<std::pair<std::string, std::string>> tables;
    int64_t inventory = -1;  // workloads, nodes and pods of the cluster, in one number
  };

  // Runs the whole load against `db_uri`; `disrupt` (may be empty) is called
  // half-way through the pushes, with the API's read load running, and
  // returns the instant the database was lost. With a `baseline`, the
  // inventory is awaited until it holds as many rows as the baseline's (the
  // k8s ingest may still be backing off from the failover), then compared.
  Stored RunLoad(const std::string& db_uri, const std::function<absl::Time()>& disrupt,
                 const Stored* baseline = nullptr) {
    Stored stored;
    auto prometheus = testing::StartIngest(db_uri, "ha", {"--migrate"});
    EXPECT_THAT(prometheus, IsOk());
    if (!prometheus.ok()) return stored;
    {
      auto conn = pqxx::connection(db_uri);
      testing::TrustGpuSharesEverywhere(conn);
    }
    auto kube = StartKubeApi();
    if (kube == nullptr) return stored;
    auto k8s = testing::Subprocess::Start({fleetcap::testing::kIngestBin, "k8s", "--cluster", "ha", "--kube-api",
                                           kube->url(), "--db", db_uri, "--flush-interval-ms", "20", "--metrics-listen",
                                           "127.0.0.1:0", "--log-level", "warn"});
    EXPECT_THAT(k8s, IsOk());
    if (!k8s.ok()) return stored;
    EXPECT_THAT((*k8s)->WaitForLine("fleetcap-ingest k8s: synced", absl::Seconds(60)), IsOk());
    auto api = testing::StartApi(fleetcap::testing::kApiBin, db_uri);
    EXPECT_THAT(api, IsOk());
    if (!api.ok()) return stored;

    {
      ReadLoad reads(*api);
      absl::Status pushed;
      std::thread pusher([&] { pushed = PushAll(*prometheus, absl::Seconds(120)); });
      absl::SleepFor(absl::Seconds(2));
      if (disrupt) {
        const absl::Time lost = disrupt();
        ChangeInventory(*kube);
        const absl::Time deadline = lost + kApiRecoveryBound;
        absl::Time back = absl::InfinitePast();
        while (back == absl::InfinitePast() && absl::Now() < deadline) {
          absl::SleepFor(absl::Milliseconds(50));
          back = reads.FirstSuccessAfter(absl::Now() - absl::Milliseconds(200));
        }
        EXPECT_NE(back, absl::InfinitePast()) << "the API did not answer within " << kApiRecoveryBound;
        if (back != absl::InfinitePast()) {
          api_recovery_ = back - lost;
          std::cout << "ha: the API answered again " << absl::FormatDuration(api_recovery_)
                    << " after the primary was lost (" << reads.failures() << " reads failed meanwhile)" << std::endl;
        }
      } else {
        ChangeInventory(*kube);
      }
      pusher.join();
      EXPECT_THAT(pushed, IsOk());
    }
    EXPECT_THAT(testing::WaitUntilPushWritten(*prometheus, absl::Seconds(90)), IsOk());
    // The inventory changes are stored once the zoo's pods are, and the
    // workloads and nodes written with or after them: the zoo's pods are
    // above zero and no count has moved for two seconds, or, after a
    // disruption, the counts are the baseline's.
    auto conn = pqxx::connection(db_uri);
    const auto zoo_pods = [&] {
      return static_cast<int64_t>(testing::RowsWhere(testing::StoredPods(conn), [](const testing::StoredPod& p) {
                                    return p.cluster == "ha" && absl::StartsWith(p.pod_uid, "zoo-pod-");
                                  }).size());
    };
    const auto settled = [&] {
      return OfHa(testing::StoredWorkloads(conn)) * 1000000 + OfHa(testing::StoredNodes(conn)) * 1000 +
             OfHa(testing::StoredPods(conn));
    };
    int64_t rest = -1;
    const absl::Time deadline = absl::Now() + absl::Seconds(60);
    int64_t seen = -1;
    absl::Time steady_since = absl::Now();
    while (absl::Now() < deadline) {
      const int64_t now_seen = zoo_pods(), now_rest = settled();
      if (baseline != nullptr) {
        seen = now_seen;
        rest = now_rest;
        if (rest == baseline->inventory) break;
      } else if (now_seen != seen || now_rest != rest) {
        seen = now_seen;
        rest = now_rest;
        steady_since = absl::Now();
      } else if (seen > 0 && absl::Now() - steady_since > absl::Seconds(2)) {
        break;
      }
      absl::SleepFor(absl::Milliseconds(200));
    }
    EXPECT_GT(seen, 0) << "the inventory changes made during the failover were not stored";
    stored.inventory = rest;
    // No daemon was restarted: each is still the process started above.
    EXPECT_EQ(::kill(prometheus->process->pid(), 0), 0) << "fleetcap-ingest prometheus died";
    EXPECT_EQ(::kill((*k8s)->pid(), 0), 0) << "fleetcap-ingest k8s died";
    EXPECT_EQ(::kill(api->process->pid(), 0), 0) << "fleetcap-api died";
    for (const store::PlannedTable& planned : store::DistributionPlan()) {
      if (planned.placement == store::TablePlacement::kCoordinatorLocal || kBookkeeping.count(planned.table) > 0) {
        continue;
      }
      stored.tables.emplace_back(planned.table, TableRows(conn, planned.table));
    }
    EXPECT_GT(testing::StoredMinutes(conn, "ha").size(), 0u);
    EXPECT_GT(OfHa(testing::StoredPods(conn)), 0);
    return stored;
  }

  static void ExpectSameRows(const Stored& disrupted, const Stored& baseline) {
    ASSERT_EQ(disrupted.tables.size(), baseline.tables.size());
    for (size_t i = 0; i < baseline.tables.size(); ++i) {
      const auto& [table, rows] = baseline.tables[i];
      const std::string& other = disrupted.tables[i].second;
      std::vector<std::string> a = absl::StrSplit(other, '\n'), b = absl::StrSplit(rows, '\n');
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      std::vector<std::string> missing, extra;
      std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(missing));
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(extra));
      EXPECT_TRUE(other == rows) << "table " << table << ": " << a.size() << " rows through the failover, " << b.size()
                                 << " without; only without: " << absl::StrJoin(missing, " | ").substr(0, 2000)
                                 << "; only through: " << absl::StrJoin(extra, " | ").substr(0, 2000);
    }
  }

  // The same load without a disruption, run first: what the disrupted run
  // must store.
  Stored Baseline() {
    auto db = testing::TestDatabase::Empty();
    EXPECT_THAT(db, IsOk());
    if (!db.ok()) return {};
    baseline_db_ = std::move(*db);
    Stored stored = RunLoad(baseline_db_->uri(), nullptr);
    EXPECT_GT(stored.inventory, 0) << "the baseline stored no inventory";
    return stored;
  }

  std::unique_ptr<testing::TestDatabase> baseline_db_;
  absl::Duration api_recovery_ = absl::InfiniteDuration();
};

TEST_F(HaFailoverTest, KillingThePrimaryLosesNothingAndNoDaemonIsRestarted) {
  const Stored baseline = Baseline();
  auto cluster = testing::PatroniCluster::Start();
  ASSERT_THAT(cluster, IsOk());
  std::string killed, promoted;
  const auto kill_primary = [&] {
    auto node = (*cluster)->KillPrimary();
    const absl::Time lost = absl::Now();
    EXPECT_THAT(node, IsOk());
    if (node.ok()) {
      killed = *node;
      promoted = killed == "node1" ? "node2" : "node1";
      EXPECT_THAT((*cluster)->WaitForPrimary(promoted), IsOk());
      std::cout << "ha: " << promoted << " promoted " << absl::FormatDuration(absl::Now() - lost) << " after " << killed
                << " was killed" << std::endl;
    }
    return lost;
  };
  const Stored disrupted = RunLoad((*cluster)->uri(), kill_primary, &baseline);
  auto primary = (*cluster)->Primary();
  ASSERT_THAT(primary, IsOk());
  EXPECT_EQ(*primary, promoted);
  ExpectSameRows(disrupted, baseline);
  EXPECT_LT(api_recovery_, kApiRecoveryBound);
}

TEST_F(HaFailoverTest, PlannedSwitchoverLosesNothingAndNoDaemonIsRestarted) {
  const Stored baseline = Baseline();
  auto cluster = testing::PatroniCluster::Start();
  ASSERT_THAT(cluster, IsOk());
  std::string promoted;
  const auto switch_over = [&] {
    const absl::Time started = absl::Now();
    auto node = (*cluster)->Switchover();
    EXPECT_THAT(node, IsOk());
    if (node.ok()) promoted = *node;
    std::cout << "ha: switchover to " << promoted << " took " << absl::FormatDuration(absl::Now() - started)
              << std::endl;
    return started;
  };
  const Stored disrupted = RunLoad((*cluster)->uri(), switch_over, &baseline);
  auto primary = (*cluster)->Primary();
  ASSERT_THAT(primary, IsOk());
  EXPECT_EQ(*primary, promoted);
  ExpectSameRows(disrupted, baseline);
  EXPECT_LT(api_recovery_, kApiRecoveryBound);
}

// --db-read: the API's heavy reads (usage here) go to the standby named by
// a second URI, target_session_attrs=prefer-standby, while --db stays on the
// primary. The read pool's sessions carry their own application_name, so the
// test sees on which server they are.
TEST_F(HaFailoverTest, DbReadServesUsageFromTheStandby) {
  auto cluster = testing::PatroniCluster::Start();
  ASSERT_THAT(cluster, IsOk());
  auto prometheus = testing::StartIngest((*cluster)->uri(), "ha", {"--migrate"});
  ASSERT_THAT(prometheus, IsOk());
  ASSERT_THAT(PushAll(*prometheus, absl::Seconds(60)), IsOk());
  ASSERT_THAT(testing::WaitUntilPushWritten(*prometheus), IsOk());

  auto primary = (*cluster)->Primary();
  ASSERT_THAT(primary, IsOk());
  const std::string standby = *primary == "node1" ? "node2" : "node1";
  auto primary_uri = (*cluster)->NodeUri(*primary);
  auto standby_uri = (*cluster)->NodeUri(standby);
  ASSERT_THAT(primary_uri, IsOk());
  ASSERT_THAT(standby_uri, IsOk());
  pqxx::connection on_primary(*primary_uri), on_standby(*standby_uri);
  ASSERT_TRUE(testing::IsInRecovery(on_standby));
  const auto usage_count = [](pqxx::connection& conn) { return testing::StoredMinutes(conn, "ha").size(); };
  const size_t written = usage_count(on_primary);
  ASSERT_GT(written, 0u);
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (usage_count(on_standby) != written && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(100));
  ASSERT_EQ(usage_count(on_standby), written) << "the standby did not replay the usage";

  // Both nodes in the read URI: libpq prefers the standby.
  const std::string hosts = (*cluster)->uri().substr(0, (*cluster)->uri().find('?'));
  auto api = testing::StartApi(
      fleetcap::testing::kApiBin, (*cluster)->uri(),
      {"--db-read", hosts + "?target_session_attrs=prefer-standby&application_name=fleetcap-api-read"});
  ASSERT_THAT(api, IsOk());
  auto r = testing::HttpGet(
      api->http_base() + "/v1/usage?cluster=ha&start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z&resolution=hour",
      api->admin_token);
  ASSERT_THAT(r, IsOk());
  ASSERT_EQ(r->status, 200) << r->body;
  // Every pushed sample: 4 GPUs, 4 scrapes a minute, kPushMinutes minutes.
  const nlohmann::json usage = nlohmann::json::parse(r->body);
  ASSERT_EQ(usage["buckets"].size(), 1u) << r->body;
  EXPECT_EQ(usage["buckets"][0]["samples"], std::to_string(4 * 4 * kPushMinutes)) << r->body;
  EXPECT_EQ(usage["buckets"][0]["series"], "4") << r->body;

  EXPECT_GT(testing::SessionsOfApplication(on_standby, "fleetcap-api-read", "fleetcap"), 0)
      << "no read-pool session on the standby";
  EXPECT_EQ(testing::SessionsOfApplication(on_primary, "fleetcap-api-read", "fleetcap"), 0)
      << "a read-pool session on the primary";
}

}  // namespace
}  // namespace fleetcap

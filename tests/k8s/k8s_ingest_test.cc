// fleetcap-ingest k8s, the real executable, against the fixture API server
// and a real PostgreSQL: the store equals the fixture's truth for every
// accelerator kind, and stays equal through dropped watches, 410s both ways,
// expired continue tokens, 5xx answers, a rotated token, malformed JSON,
// 2 MiB objects, and kill -9 in the middle of a sync.

#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_live_inventory_repository.h"
#include "tests/k8s/fixture/accelerator_zoo.h"
#include "tests/k8s/fixture/fake_api_server.h"
#include "tests/k8s/fixture/objects.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_inventory.h"
#include "tests/support/stored_quarantine.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/support/test_dir.h"
#include "tests/support/trusted_shares.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using testing::FakeApiServer;
using ::testing::HasSubstr;
using testing::ModelTruth;

const absl::Time kT0 = absl::FromUnixSeconds(1767225600);  // 2026-01-01T00:00:00Z

bool WaitFor(const std::function<bool()>& done, absl::Duration timeout = absl::Seconds(30)) {
  const absl::Time until = absl::Now() + timeout;
  while (absl::Now() < until) {
    if (done()) return true;
    absl::SleepFor(absl::Milliseconds(100));
  }
  return done();
}

class K8sIngestTest : public testing::MigratedDatabaseTest {
 protected:
  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    testing::TrustGpuSharesEverywhere(*conn_);
    WriteToken("token-1");
    testing::FakeApiOptions options;
    options.token = "token-1";
    options.bookmark_interval = absl::Milliseconds(300);
    auto api = FakeApiServer::Start(options);
    ASSERT_THAT(api, IsOk());
    api_ = std::move(*api);
  }
  void TearDown() override {
    ingest_.reset();
    api_.reset();
  }

  void WriteToken(const std::string& token) {
    std::ofstream(dir_.path() + "/token.tmp") << token << "\n";
    std::filesystem::rename(dir_.path() + "/token.tmp", dir_.path() + "/token");
  }
  void LoadZoo() {
    for (auto& [plural, object] : testing::ZooObjects(kT0)) api_->Apply(plural, object);
  }

  std::vector<std::string> IngestArgs(const std::string& db_uri, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {fleetcap::testing::kIngestBin,
                                     "k8s",
                                     "--cluster",
                                     "zoo",
                                     "--kube-api",
                                     api_->url(),
                                     "--token-file",
                                     dir_.path() + "/token",
                                     "--db",
                                     db_uri,
                                     "--watch-timeout",
                                     "5",
                                     "--token-reread",
                                     "1",
                                     "--flush-interval-ms",
                                     "50",
                                     "--metrics-listen",
                                     "127.0.0.1:0"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  // Starts the ingest and waits until it has synced.
  void StartIngest(std::vector<std::string> extra = {}) {
    auto started = testing::Subprocess::Start(IngestArgs(db_->uri(), std::move(extra)));
    ASSERT_THAT(started, IsOk());
    ingest_ = std::move(*started);
    auto metrics = ingest_->WaitForLine("fleetcap-ingest k8s: metrics on port ", absl::Seconds(20));
    ASSERT_THAT(metrics, IsOk()) << metrics.status() << ingest_->Stderr();
    metrics_port_ = metrics->substr(std::string("fleetcap-ingest k8s: metrics on port ").size());
    auto synced = ingest_->WaitForLine("fleetcap-ingest k8s: synced", absl::Seconds(60));
    ASSERT_THAT(synced, IsOk()) << synced.status() << ingest_->Stderr();
  }
  double Metric(const std::string& name_and_labels) {
    auto page = testing::HttpGet("http://127.0.0.1:" + metrics_port_ + "/metrics");
    if (!page.ok()) return -1;
    double total = 0;
    for (absl::string_view line : absl::StrSplit(page->body, '\n')) {
      if (absl::StartsWith(line, name_and_labels)) {
        double v = 0;
        if (absl::SimpleAtod(line.substr(line.rfind(' ') + 1), &v)) total += v;
      }
    }
    return total;
  }

  std::map<std::string, ModelTruth> Summary(absl::Time at, const std::string& cluster = "zoo") {
    store::PgLiveInventoryRepository repo(pool());
    auto counts = repo.SummarizeAt(cluster, at);
    std::map<std::string, ModelTruth> out;
    if (!counts.ok()) return out;
    for (const auto& c : *counts) out[c.model] = {c.devices, c.held_milli};
    return out;
  }
  int64_t HeldMilli(const std::string& model, absl::Time at) { return Summary(at)[model].held_milli; }
  std::vector<testing::StoredPod> Pods() { return testing::StoredPods(*db_->Connect()); }
  std::vector<testing::StoredHold> Holds() { return testing::StoredHolds(*db_->Connect()); }
  // The pod of `uid`; a test failure if it is not stored.
  std::optional<testing::StoredPod> Pod(const std::string& uid) {
    for (auto& pod : Pods()) {
      if (pod.pod_uid == uid) return pod;
    }
    return std::nullopt;
  }
  std::vector<store::QuarantineRecord> SetAside() { return testing::QuarantinedRecords(db_->uri()); }
  // A running pod asking for `gpus` H100s on h100-0, as if created now.
  void AddH100Pod(const std::string& name, int gpus, std::string padding = "") {
    AddH100Pod(name, std::to_string(gpus), std::move(padding));
  }
  void AddH100Pod(const std::string& name, const std::string& gpus, std::string padding = "") {
    testing::PodSpec p;
    p.ns = "research";
    p.name = name;
    p.uid = "uid-" + name;
    p.node = "h100-0";
    p.phase = "Running";
    p.created = kT0 + absl::Hours(1);
    p.scheduled = kT0 + absl::Hours(1);
    p.started = kT0 + absl::Hours(1) + absl::Minutes(1);
    p.requests = {{"nvidia.com/gpu", gpus}};
    p.padding = std::move(padding);
    api_->Apply("pods", testing::PodJson(p));
  }
  const absl::Time kLater = kT0 + absl::Hours(3);

  testing::TestDir dir_{"k8s-test"};
  std::unique_ptr<FakeApiServer> api_;
  std::unique_ptr<testing::Subprocess> ingest_;
  std::string metrics_port_;
};

TEST_F(K8sIngestTest, TheStoreEqualsTheFixturesTruthForEveryAcceleratorKind) {
  LoadZoo();
  StartIngest();
  EXPECT_EQ(Summary(kLater), testing::ZooTruth());
  // The finished pod held its two H100s from its container start to its end.
  std::set<std::pair<std::string, std::string>> succeeded;  // (cluster, pod_uid)
  for (const auto& pod : Pods()) {
    if (pod.phase == "Succeeded") succeeded.emplace(pod.cluster, pod.pod_uid);
  }
  const auto finished = testing::RowsWhere(Holds(), [&](const testing::StoredHold& h) {
    return succeeded.count({h.cluster, h.pod_uid}) > 0;
  });
  ASSERT_EQ(finished.size(), 2u);
  absl::Time first_from = absl::InfiniteFuture(), first_to = absl::InfiniteFuture();
  for (const auto& h : finished) {
    first_from = std::min(first_from, h.held_from);
    if (h.held_to) first_to = std::min(first_to, *h.held_to);
  }
  EXPECT_EQ(first_from, kT0 + absl::Minutes(3));  // 2026-01-01 00:03:00+00
  EXPECT_EQ(first_to, kT0 + absl::Minutes(30));   // 2026-01-01 00:30:00+00
  EXPECT_EQ(HeldMilli("H100-SXM5-80GB", kT0 + absl::Minutes(10)), 8000);
  EXPECT_EQ(HeldMilli("H100-SXM5-80GB", kT0 + absl::Minutes(2)), 0);  // before the containers started
  // Team evidence (resolved by the policy when read): the namespaces' label and
  // annotation, pods without labels of their own; workloads: top controllers.
  auto teams = testing::RowsWhere(
      Pods(), [](const testing::StoredPod& p) { return p.node == "h100-0" && p.phase == "Running"; });
  std::stable_sort(teams.begin(), teams.end(), [](const testing::StoredPod& a, const testing::StoredPod& b) {
    return a.namespace_ < b.namespace_;
  });
  ASSERT_EQ(teams.size(), 2u);
  EXPECT_EQ(teams[0].team, "");
  EXPECT_EQ(teams[0].workload_kind, "CronJob");
  EXPECT_EQ(teams[0].workload_name, "nightly");
  EXPECT_EQ(teams[1].team, "");
  EXPECT_EQ(teams[1].workload_kind, "Deployment");
  EXPECT_EQ(teams[1].workload_name, "trainer");
  auto evidence = testing::StoredNamespaceLabels(*conn_);  // ordered by namespace
  ASSERT_EQ(evidence.size(), 2u);
  EXPECT_EQ(evidence[0].namespace_, "nlp");
  EXPECT_EQ(evidence[0].source, "annotation");
  EXPECT_EQ(evidence[0].value, "nlp");
  EXPECT_EQ(evidence[1].namespace_, "vision");
  EXPECT_EQ(evidence[1].source, "label");
  // The waiting pod is unmet demand for 8 H100s since its creation.
  auto demand = testing::StoredPendingDemands(*conn_);
  ASSERT_EQ(demand.size(), 1u);
  EXPECT_EQ(demand[0].model, "H100-SXM5-80GB");
  EXPECT_EQ(demand[0].requested_milli, 8000);
  EXPECT_EQ(demand[0].pending_from, kT0 + absl::Minutes(1));  // 2026-01-01 00:01:00+00
  EXPECT_FALSE(demand[0].pending_to.has_value());
  // The CPU-only pod is not an accelerator pod.
  EXPECT_EQ(testing::RowsWhere(Pods(), [](const testing::StoredPod& p) { return p.node == "cpu-0"; }).size(), 0u);
  const auto tpu =
      testing::RowsWhere(testing::StoredNodes(*conn_), [](const testing::StoredNode& n) { return n.node == "tpu-0"; });
  ASSERT_FALSE(tpu.empty());
  EXPECT_EQ(tpu[0].accelerator_topology, "2x2x1");
  EXPECT_GE(Metric("fleetcap_ingest_k8s_last_sync_timestamp_seconds"), 1e9);
  EXPECT_GE(Metric("fleetcap_ingest_k8s_list_objects_total{kind=\"Pod\"}"), 20);

  // SIGTERM: a clean stop.
  auto stopped = ingest_->Stop(SIGTERM);
  EXPECT_EQ(stopped.exit_code, 0) << stopped.err;
}

TEST_F(K8sIngestTest, WatchedChangesAndDeletionsAreFollowed) {
  LoadZoo();
  StartIngest();
  AddH100Pod("late", 2);
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 8000; }));
  // Deleted after its container finished: the hold ends at finishedAt.
  nlohmann::json pod = api_->Get("pods", "research", "late");
  pod["status"]["phase"] = "Succeeded";
  pod["status"]["containerStatuses"][0]["state"] = {
      {"terminated", {{"startedAt", "2026-01-01T01:01:00Z"}, {"finishedAt", "2026-01-01T02:00:00Z"}}}};
  api_->Apply("pods", pod);
  api_->Delete("pods", "research", "late");
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 6000; }));
  EXPECT_EQ(HeldMilli("H100-SXM5-80GB", kT0 + absl::Minutes(90)), 8000);
  // The update (the hold ends) and the deletion may be stored in separate batches.
  const auto deleted_at = [&] { return Pod("uid-late").value().deleted_at; };
  ASSERT_TRUE(WaitFor([&] { return deleted_at().has_value(); }));
  EXPECT_EQ(deleted_at(), kT0 + absl::Hours(2));  // 2026-01-01 02:00:00+00
  // A node that leaves takes its devices out of service.
  api_->Delete("nodes", "", "mi300-0");
  ASSERT_TRUE(WaitFor([&] { return Summary(absl::Now() + absl::Hours(1)).count("AMD_Instinct_MI300X_OAM") == 0; }));
  EXPECT_EQ(Summary(kLater)["AMD_Instinct_MI300X_OAM"].devices, 8);  // history stays
}

TEST_F(K8sIngestTest, ADroppedWatchReconnectsAndMissesNothing) {
  LoadZoo();
  StartIngest();
  const int watches = api_->counters().watches;
  api_->DropWatches();
  AddH100Pod("after-drop", 1);
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 7000; }));
  EXPECT_GT(api_->counters().watches, watches);
  EXPECT_GE(Metric("fleetcap_ingest_k8s_watch_restarts_total"), 1);
}

// While the ingest is away (its watches paused, then cut), a pod goes and the
// history it would resume from is compacted: the watch gets 410, the ingest
// lists again and closes the pod's hold at that time, never drops it.
void GoneThenRelist(K8sIngestTest* t, FakeApiServer* api, bool http_status,
                    const std::function<int64_t(absl::Time)>& held,
                    const std::function<std::vector<testing::StoredHold>()>& holds) {
  api->SetGoneAsHttpStatus(http_status);
  api->PauseWatches(true);
  api->Delete("pods", "vision", "h100-0-pod-0");  // the 4-GPU pod
  api->Compact();
  const absl::Time before = absl::Now();
  api->DropWatches();
  api->PauseWatches(false);
  ASSERT_TRUE(WaitFor([&] { return held(absl::Now() + absl::Hours(1)) == 2000; }));
  EXPECT_EQ(held(before - absl::Seconds(1)), 6000);  // held until it was found gone
  auto closed = testing::RowsWhere(holds(), [](const testing::StoredHold& h) { return h.pod_uid == "zoo-pod-0"; });
  ASSERT_EQ(closed.size(), 4u);
  ASSERT_TRUE(closed[0].held_to.has_value());
  // In whole seconds, rounded.
  EXPECT_GE(absl::ToUnixSeconds(*closed[0].held_to + absl::Milliseconds(500)), absl::ToUnixSeconds(before) - 1);
  EXPECT_GE(api->counters().gone, 1);
  (void)t;
}

TEST_F(K8sIngestTest, A410InTheWatchStreamLeadsToARelistThatReconciles) {
  LoadZoo();
  StartIngest();
  GoneThenRelist(
      this, api_.get(), false, [&](absl::Time at) { return HeldMilli("H100-SXM5-80GB", at); }, [&] { return Holds(); });
  EXPECT_GE(Metric("fleetcap_ingest_k8s_relists_total{kind=\"Pod\",reason=\"gone\"}"), 1);
}

TEST_F(K8sIngestTest, A410AsTheWatchsHttpStatusLeadsToARelistThatReconciles) {
  LoadZoo();
  StartIngest();
  GoneThenRelist(
      this, api_.get(), true, [&](absl::Time at) { return HeldMilli("H100-SXM5-80GB", at); }, [&] { return Holds(); });
}

TEST_F(K8sIngestTest, AnExpiredContinueTokenStartsTheListAgain) {
  LoadZoo();
  api_->ExpireContinueAfterPages(3);
  StartIngest({"--page-size", "2"});
  EXPECT_EQ(Summary(kLater), testing::ZooTruth());
  EXPECT_GE(api_->counters().gone, 1);
  EXPECT_GE(Metric("fleetcap_ingest_k8s_relists_total{kind=\"Namespace\",reason=\"expired-continue\"}") +
                Metric("fleetcap_ingest_k8s_relists_total{kind=\"ReplicaSet\",reason=\"expired-continue\"}") +
                Metric("fleetcap_ingest_k8s_relists_total{kind=\"Node\",reason=\"expired-continue\"}") +
                Metric("fleetcap_ingest_k8s_relists_total{kind=\"Pod\",reason=\"expired-continue\"}") +
                Metric("fleetcap_ingest_k8s_relists_total{kind=\"Deployment\",reason=\"expired-continue\"}"),
            1);
}

TEST_F(K8sIngestTest, ServerErrorsAreRetriedWithBackoff) {
  LoadZoo();
  api_->FailNextRequests(12, 500);
  StartIngest();
  EXPECT_EQ(api_->counters().failed, 12);
  EXPECT_EQ(Summary(kLater), testing::ZooTruth());
  EXPECT_GE(Metric("fleetcap_ingest_k8s_request_errors_total"), 1);
  api_->FailNextRequests(3, 503);
  api_->DropWatches();
  AddH100Pod("after-503", 1);
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 7000; }));
}

TEST_F(K8sIngestTest, ATokenRotatedMidRunIsReadAgain) {
  LoadZoo();
  StartIngest();
  WriteToken("token-2");
  api_->SetToken("token-2");
  api_->DropWatches();
  AddH100Pod("after-rotation", 1);
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 7000; }));
  EXPECT_GE(Metric("fleetcap_ingest_k8s_token_reloads_total"), 1);
}

TEST_F(K8sIngestTest, MalformedJsonIsCountedAndTheRestOfTheStreamUsed) {
  LoadZoo();
  StartIngest();
  api_->SendMalformedInWatches();
  AddH100Pod("after-garbage", 1);
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 7000; }));
  EXPECT_GE(Metric("fleetcap_ingest_k8s_decode_errors_total"), 1);
  const std::string err = ingest_->Stderr();
  EXPECT_THAT(err, HasSubstr("not a watch event")) << err;
}

TEST_F(K8sIngestTest, TwoMebibyteObjectsInListsAndWatches) {
  LoadZoo();
  AddH100Pod("big-listed", 1, std::string(2 << 20, 'x'));
  StartIngest();
  EXPECT_EQ(HeldMilli("H100-SXM5-80GB", kLater), 7000);
  AddH100Pod("big-watched", 1, std::string(2 << 20, 'y'));
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 8000; }));
}

// The API server accepts this quantity; in milli-devices, rounded up to
// whole devices, it no longer fits in 64 bits.
TEST_F(K8sIngestTest, ARequestThatOverflowsMilliDevicesCostsOnlyItsPod) {
  LoadZoo();
  StartIngest();
  AddH100Pod("overflow", "9223372036854775");
  AddH100Pod("after-overflow", 1);
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 7000; }));
  // Set aside with its name, the field and the object as it came.
  auto aside = SetAside();
  ASSERT_EQ(aside.size(), 1u);
  EXPECT_EQ(aside[0].source, "k8s");
  EXPECT_EQ(aside[0].cluster, "zoo");
  EXPECT_EQ(aside[0].object_key, "Pod research/overflow uid=uid-overflow");
  EXPECT_THAT(aside[0].reason,
              ::testing::HasSubstr("pod research/overflow: spec.containers[0].resources.requests[\"nvidia.com/gpu\"]"));
  EXPECT_THAT(aside[0].payload, ::testing::HasSubstr("9223372036854775"));
  EXPECT_FALSE(Pod("uid-overflow").has_value());
  EXPECT_EQ(Metric("fleetcap_ingest_k8s_quarantined_total{reason=\"overflow\"}"), 1);
  // A restart lists it again and still stores everything else.
  ingest_->Stop(SIGTERM);
  auto run = testing::Run(IngestArgs(db_->uri(), {"--exit-after-sync"}), absl::Seconds(60));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(HeldMilli("H100-SXM5-80GB", kLater), 7000);
}

// PostgreSQL cannot hold the year 0 that RFC 3339 and the decoder accept:
// the store refuses that pod's row, and only that row.
TEST_F(K8sIngestTest, ARecordTheStoreRefusesCostsOnlyItself) {
  LoadZoo();
  StartIngest();
  testing::PodSpec p;
  p.ns = "research";
  p.name = "year-zero";
  p.uid = "uid-year-zero";
  p.node = "h100-0";
  p.phase = "Running";
  p.created = absl::FromCivil(absl::CivilSecond(0, 1, 1, 0, 0, 0), absl::UTCTimeZone());
  p.scheduled = kT0 + absl::Hours(1);
  p.started = kT0 + absl::Hours(1);
  p.requests = {{"nvidia.com/gpu", "1"}};
  api_->Apply("pods", testing::PodJson(p));
  AddH100Pod("after-refusal", 1);
  // Its hold is a fact the store can keep; its pod row is set aside.
  ASSERT_TRUE(WaitFor([&] { return HeldMilli("H100-SXM5-80GB", kLater) == 8000; }));
  EXPECT_TRUE(Pod("uid-after-refusal").has_value());
  EXPECT_FALSE(Pod("uid-year-zero").has_value());
  // The refused record is stored after the rest, in its own transaction.
  ASSERT_TRUE(WaitFor([&] { return !SetAside().empty(); }));
  auto aside = SetAside();
  ASSERT_EQ(aside.size(), 1u);
  EXPECT_EQ(aside[0].source, "k8s");
  EXPECT_EQ(aside[0].object_key, "Pod research/year-zero uid=uid-year-zero");
  EXPECT_THAT(aside[0].reason, ::testing::HasSubstr("out of range"));
  EXPECT_THAT(aside[0].payload, ::testing::HasSubstr("created=0-01-01T00:00:00Z"));
  EXPECT_EQ(Metric("fleetcap_ingest_k8s_quarantined_total{reason=\"refused\"}"), 1);
}

// A pod and a node whose new versions cannot be decoded, then history lost
// and everything listed again: both stay as they were last stored, set aside
// once each; the pod ends when it is deleted.
TEST_F(K8sIngestTest, AnUndecodableObjectIsKeptAsLastStoredThroughARelist) {
  LoadZoo();
  StartIngest();
  nlohmann::json pod = api_->Get("pods", "vision", "h100-0-pod-0");  // 4 of h100-0's GPUs
  pod["status"]["startTime"] = "yesterday";
  api_->Apply("pods", pod);
  nlohmann::json node = api_->Get("nodes", "", "mi300-0");
  node["status"]["allocatable"]["amd.com/gpu"] = "eight";
  api_->Apply("nodes", node);
  api_->Compact();
  api_->DropWatches();
  AddH100Pod("after-relist", 1);  // seen only by the new list
  const auto held_now = [&] { return HeldMilli("H100-SXM5-80GB", absl::Now() + absl::Hours(1)); };
  ASSERT_TRUE(WaitFor([&] { return held_now() == 7000; })) << held_now();
  EXPECT_GE(Metric("fleetcap_ingest_k8s_relists_total{kind=\"Pod\",reason=\"gone\"}"), 1);
  EXPECT_EQ(Summary(absl::Now() + absl::Hours(1))["AMD_Instinct_MI300X_OAM"].devices, 8);
  ASSERT_TRUE(Pod("zoo-pod-0").has_value());
  EXPECT_FALSE(Pod("zoo-pod-0")->deleted_at.has_value());
  // Each set aside once, whatever the relist showed again. The node and the
  // pods are watched apart, so the node's record may land a flush later.
  ASSERT_TRUE(WaitFor([&] { return SetAside().size() == 2; }));
  auto aside = SetAside();
  std::sort(aside.begin(), aside.end(), [](const store::QuarantineRecord& a, const store::QuarantineRecord& b) {
    return a.object_key < b.object_key;
  });
  ASSERT_EQ(aside.size(), 2u);
  EXPECT_EQ(aside[0].object_key, "Node mi300-0 uid=node-mi300-0");
  EXPECT_THAT(aside[0].reason, ::testing::HasSubstr("status.allocatable[\"amd.com/gpu\"]"));
  EXPECT_EQ(aside[1].object_key, "Pod vision/h100-0-pod-0 uid=zoo-pod-0");
  EXPECT_THAT(aside[1].reason, ::testing::HasSubstr("status.startTime"));
  EXPECT_EQ(Metric("fleetcap_ingest_k8s_quarantined_total{reason=\"undecodable\"}"), 2);
  // Its owner updates it, still undecodable: not set aside again.
  pod["metadata"]["labels"]["touched"] = "1";
  api_->Apply("pods", pod);
  AddH100Pod("after-update", 1);
  ASSERT_TRUE(WaitFor([&] { return held_now() == 8000; })) << held_now();
  EXPECT_EQ(SetAside().size(), 2u);
  // Deleted, it ends when the deletion is seen.
  api_->Delete("pods", "vision", "h100-0-pod-0");
  ASSERT_TRUE(WaitFor([&] { return held_now() == 4000; })) << held_now();
}

std::string DumpTime(absl::Time t) { return FormatRfc3339(t); }
std::string DumpTime(const std::optional<absl::Time>& t) { return t ? FormatRfc3339(*t) : "NULL"; }

// The inventory's rows of one cluster's run, as text, to compare two runs by.
std::string StoreDump(testing::TestDatabase& db) {
  auto conn = db.Connect();
  std::string out;
  for (const auto& h : testing::StoredHolds(*conn)) {
    absl::StrAppend(&out, h.pod_uid, "|", h.device_id, "|", h.milli, "|", DumpTime(h.held_from), "|",
                    DumpTime(h.held_to), "|\n");
  }
  for (const auto& d : testing::StoredDevices(*conn)) {
    absl::StrAppend(&out, d.device_id, "|", d.node, "|", d.device_index, "|", d.model, "|", DumpTime(d.in_service_from),
                    "|", DumpTime(d.in_service_to), "|\n");
  }
  for (const auto& n : testing::StoredNodes(*conn)) {
    absl::StrAppend(&out, n.node, "|", n.pool, "|", DumpTime(n.in_service_from), "|", DumpTime(n.in_service_to), "|\n");
  }
  for (const auto& p : testing::StoredPods(*conn)) {
    absl::StrAppend(&out, p.pod_uid, "|", p.namespace_, "|", p.name, "|", p.team, "|", p.workload_kind, "|",
                    p.workload_name, "|", p.phase, "|", DumpTime(p.created_at), "|", DumpTime(p.scheduled_at), "|",
                    DumpTime(p.deleted_at), "|", p.requested_milli, "|", p.unplaced ? "t" : "f", "|", p.node, "|\n");
  }
  for (const auto& d : testing::StoredPendingDemands(*conn)) {
    absl::StrAppend(&out, d.pod_uid, "|", d.model, "|", d.requested_milli, "|", DumpTime(d.pending_from), "|",
                    DumpTime(d.pending_to), "|\n");
  }
  return out;
}

TEST_F(K8sIngestTest, KilledMidSyncThenRestartedEqualsAnUninterruptedRun) {
  LoadZoo();
  for (int i = 0; i < 60; ++i) {
    testing::PodSpec p;
    p.ns = i % 2 ? "vision" : "nlp";
    p.name = absl::StrCat("extra-", i);
    p.uid = absl::StrCat("uid-extra-", i);
    p.node = i % 3 == 0 ? "t4-shared" : "a100-single";
    p.phase = i % 5 == 0 ? "Pending" : "Running";
    if (p.phase == "Pending") p.node.clear();
    p.created = kT0 + absl::Minutes(i);
    if (!p.node.empty()) {
      p.scheduled = kT0 + absl::Minutes(i + 1);
      p.started = kT0 + absl::Minutes(60 - i);  // start order differs from list order
    }
    p.requests = {{"nvidia.com/gpu", "1"}};
    api_->Apply("pods", testing::PodJson(p));
  }
  // The uninterrupted run, into its own database.
  auto reference_db = testing::TestDatabase::Migrated();
  ASSERT_THAT(reference_db, IsOk());
  testing::TrustGpuSharesEverywhere(*(*reference_db)->Connect());
  {
    auto run = testing::Run(
        [&] {
          auto args = IngestArgs((*reference_db)->uri(), {"--exit-after-sync", "--page-size", "7"});
          return args;
        }(),
        absl::Seconds(120));
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  // Killed while listing pods (pages are slow), then started again.
  api_->SetListPageDelay(absl::Milliseconds(100));
  {
    auto started = testing::Subprocess::Start(IngestArgs(db_->uri(), {"--page-size", "7"}));
    ASSERT_THAT(started, IsOk());
    const int lists = api_->counters().lists;
    ASSERT_TRUE(WaitFor([&] { return api_->counters().lists >= lists + 10; }));
    auto killed = (*started)->Stop(SIGKILL);
    EXPECT_EQ(killed.exit_code, 128 + SIGKILL);
  }
  api_->SetListPageDelay(absl::ZeroDuration());
  auto run = testing::Run(IngestArgs(db_->uri(), {"--exit-after-sync", "--page-size", "7"}), absl::Seconds(120));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string want = StoreDump(**reference_db);
  EXPECT_GT(want.size(), 1000u);
  EXPECT_EQ(StoreDump(*db_), want);
  // And once more, killed after it stored everything: a restart changes nothing.
  run = testing::Run(IngestArgs(db_->uri(), {"--exit-after-sync"}), absl::Seconds(120));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(StoreDump(*db_), want);
}

}  // namespace
}  // namespace fleetcap

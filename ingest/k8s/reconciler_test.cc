#include "ingest/k8s/reconciler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/memory_live_inventory_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::k8s {
namespace {

using ::fleetcap::testing::IsOk;

const absl::Time kReconcileT0 = absl::FromUnixSeconds(1767225600);
absl::Time AtMinute(int minutes) { return kReconcileT0 + absl::Minutes(minutes); }

NodeObject GpuNode(const std::string& name, int gpus,
                   std::map<std::string, std::string> labels = {{"nvidia.com/gpu.product", "H100"}}) {
  NodeObject n;
  n.name = name;
  n.uid = "uid-" + name;
  n.created = AtMinute(0);
  n.labels = std::move(labels);
  n.capacity = {{"cpu", 64000}, {"memory", int64_t{1024} * 1024 * 1024 * 1000}, {"nvidia.com/gpu", gpus * 1000}};
  n.allocatable = n.capacity;
  return n;
}

PodObject GpuPod(const std::string& name, int gpus, const std::string& node = "") {
  PodObject p;
  p.uid = "uid-" + name;
  p.namespace_name = "ml";
  p.name = name;
  p.created = AtMinute(1);
  p.phase = "Pending";
  ContainerResources c;
  if (gpus > 0) c.requests["nvidia.com/gpu"] = gpus * 1000;
  p.containers.push_back(c);
  if (!node.empty()) {
    p.node_name = node;
    p.scheduled_at = AtMinute(2);
  }
  return p;
}

PodObject Running(PodObject p, int started_minute) {
  p.phase = "Running";
  p.first_started = AtMinute(started_minute);
  return p;
}

PodObject Finished(PodObject p, int finished_minute) {
  p.phase = "Succeeded";
  p.last_finished = AtMinute(finished_minute);
  p.containers_terminated = static_cast<int>(p.containers.size());
  return p;
}

class ReconcilerTest : public ::testing::Test {
 protected:
  std::unique_ptr<Reconciler> NewReconciler() {
    ReconcilerOptions options;
    options.cluster = "c1";
    auto r = std::make_unique<Reconciler>(options, &repo_, nullptr, &clock_);
    EXPECT_THAT(r->Start(), IsOk());
    return r;
  }
  const store::MemoryLiveInventoryRepository::ClusterState& State() {
    static const store::MemoryLiveInventoryRepository::ClusterState kEmpty;
    const auto* st = repo_.State("c1");
    return st == nullptr ? kEmpty : *st;
  }
  std::vector<store::Hold> Holds() {
    std::vector<store::Hold> out;
    for (const auto& [key, h] : State().holds) out.push_back(h);
    return out;
  }
  store::MemoryLiveInventoryRepository repo_;
  SimulatedClock clock_{kReconcileT0};
};

TEST_F(ReconcilerTest, ANodeKeepsTheLabelsThatNamedItsModelAndPoolAndIsWrittenAgainWhenTheyChange) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2,
                  {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}, {"cloud.google.com/gke-nodepool", "a100"}}),
          AtMinute(100));
  r->NodesListed({"n1"}, AtMinute(100));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(State().nodes.size(), 1u);
  const store::LiveNode& stored = State().nodes.begin()->second;
  EXPECT_EQ(stored.model_label_key, "nvidia.com/gpu.product");
  EXPECT_EQ(stored.model_label_value, "NVIDIA-A100-SXM4-40GB");
  EXPECT_EQ(stored.pool_label_key, "cloud.google.com/gke-nodepool");
  EXPECT_EQ(stored.node.pool, "a100");
  auto labels = repo_.SharedNodeLabels("NVIDIA-A100-SXM4-40GB", "", "*");
  ASSERT_THAT(labels, IsOk());
  EXPECT_EQ(*labels, (std::map<std::string, std::string>{{"cloud.google.com/gke-nodepool", "a100"},
                                                         {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}}));

  // Relabelled by hand: the node row is written again with the new key.
  r->Node(GpuNode("n1", 2, {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}, {"karpenter.sh/nodepool", "a100"}}),
          AtMinute(110));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(State().nodes.size(), 1u);
  EXPECT_EQ(State().nodes.begin()->second.pool_label_key, "karpenter.sh/nodepool");
}

TEST_F(ReconcilerTest, InitialSyncStoresNodesDevicesHoldsAndDemand) {
  auto r = NewReconciler();
  NamespaceObject ns;
  ns.name = "ml";
  ns.labels["fleetcap.io/team"] = "vision";
  r->Namespace(ns);
  r->NamespacesListed({"ml"});
  r->Controller({"ReplicaSet", "ml", "web-abc", "rs-1", "1", OwnerRef{"Deployment", "web", "d-1"}});
  r->Controller({"Deployment", "ml", "web", "d-1", "1", std::nullopt});
  r->Node(GpuNode("n1", 2), AtMinute(100));
  r->NodesListed({"n1"}, AtMinute(100));
  PodObject running = Running(GpuPod("run", 1, "n1"), 3);
  running.controller = OwnerRef{"ReplicaSet", "web-abc", "rs-1"};
  r->Pod(running, AtMinute(100));
  r->Pod(GpuPod("wait", 2), AtMinute(100));
  r->Pod(GpuPod("cpu", 0, "n1"), AtMinute(100));
  r->PodsListed({"uid-run", "uid-wait", "uid-cpu"}, AtMinute(100));
  ASSERT_THAT(r->Flush(), IsOk());

  const auto& st = State();
  EXPECT_EQ(st.types.count("H100"), 1u);
  ASSERT_EQ(st.nodes.size(), 1u);
  EXPECT_EQ(st.nodes.begin()->second.node.in_service_from, AtMinute(0));
  EXPECT_EQ(st.nodes.begin()->second.node.cpu_milli, 64000);
  EXPECT_EQ(st.nodes.begin()->second.node.memory_mib, 1024);
  ASSERT_EQ(st.devices.size(), 2u);
  EXPECT_EQ(st.devices.begin()->second.device_id, "n1/gpu0");
  EXPECT_EQ(st.devices.begin()->second.in_service_from, AtMinute(0));
  ASSERT_EQ(st.pods.size(), 2u);  // the CPU-only pod is not stored
  const auto& run = st.pods.at("uid-run");
  EXPECT_EQ(run.pod.team, "");  // no label of its own: the policy resolves it from the namespace when read
  ASSERT_EQ(st.namespaces.count("ml"), 1u);
  EXPECT_EQ(st.namespaces.at("ml").labels.at("fleetcap.io/team"), "vision");
  EXPECT_EQ(run.pod.workload_kind, "Deployment");
  EXPECT_EQ(run.pod.workload_name, "web");
  EXPECT_EQ(run.pod.requested_milli, 1000);
  EXPECT_EQ(run.pod.scheduled, AtMinute(2));
  EXPECT_FALSE(run.pod.unplaced);
  EXPECT_EQ(run.node, "n1");
  ASSERT_EQ(Holds().size(), 1u);
  EXPECT_EQ(Holds()[0].device_id, "n1/gpu0");
  EXPECT_EQ(Holds()[0].from, AtMinute(3));  // container start, not when seen
  EXPECT_FALSE(Holds()[0].to.has_value());
  const auto& wait = st.pods.at("uid-wait");
  EXPECT_TRUE(wait.pod.unplaced);
  EXPECT_EQ(wait.pod.requested_milli, 2000);
  ASSERT_EQ(st.demands.size(), 1u);
  EXPECT_EQ(st.demands.begin()->second.from, AtMinute(1));
  EXPECT_FALSE(st.demands.begin()->second.to.has_value());
}

TEST_F(ReconcilerTest, LifecycleFromPendingToDeletion) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(0));
  r->Pod(GpuPod("p", 2), AtMinute(1));
  r->Pod(GpuPod("p", 2, "n1"), AtMinute(2));  // bound: the wait ends when it was scheduled
  r->Pod(Running(GpuPod("p", 2, "n1"), 5), AtMinute(5));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(State().demands.size(), 1u);
  EXPECT_EQ(State().demands.begin()->second.to, AtMinute(2));
  ASSERT_EQ(Holds().size(), 2u);
  r->Pod(Finished(Running(GpuPod("p", 2, "n1"), 5), 60), AtMinute(61));
  ASSERT_THAT(r->Flush(), IsOk());
  for (const auto& h : Holds()) EXPECT_EQ(h.to, AtMinute(60));
  PodObject gone = Finished(Running(GpuPod("p", 2, "n1"), 5), 60);
  gone.deletion = AtMinute(62);
  r->PodDeleted(gone, AtMinute(63));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().pods.at("uid-p").pod.deleted, AtMinute(60));
  EXPECT_EQ(r->pods_tracked(), 0u);
  // The freed GPUs are taken by the next pod.
  r->Pod(Running(GpuPod("q", 2, "n1"), 70), AtMinute(70));
  ASSERT_THAT(r->Flush(), IsOk());
  int q = 0;
  for (const auto& h : Holds()) q += h.pod_uid == "uid-q" ? 1 : 0;
  EXPECT_EQ(q, 2);
}

TEST_F(ReconcilerTest, DeletedWhileRunningEndsAtDeletion) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 1), AtMinute(0));
  r->Pod(Running(GpuPod("p", 1, "n1"), 3), AtMinute(3));
  PodObject deleting = Running(GpuPod("p", 1, "n1"), 3);
  deleting.deletion = AtMinute(30);
  r->PodDeleted(deleting, AtMinute(31));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(Holds()[0].to, AtMinute(30));
}

TEST_F(ReconcilerTest, SharingKindsHoldTheirShare) {
  auto r = NewReconciler();
  NodeObject mig =
      GpuNode("mig", 0, {{"nvidia.com/gpu.product", "A100-SXM4-40GB"}, {"nvidia.com/mig.strategy", "mixed"}});
  mig.allocatable = {{"nvidia.com/mig-3g.20gb", 4000}};
  r->Node(mig, AtMinute(0));
  NodeObject ts = GpuNode("ts", 8, {{"nvidia.com/gpu.product", "T4"}, {"nvidia.com/gpu.replicas", "4"}});
  r->Node(ts, AtMinute(0));
  PodObject slice = Running(GpuPod("slice", 0, "mig"), 3);
  slice.containers[0].requests["nvidia.com/mig-3g.20gb"] = 1000;
  r->Pod(slice, AtMinute(3));
  r->Pod(Running(GpuPod("replica", 1, "ts"), 3), AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  std::map<std::string, int> milli;
  for (const auto& h : Holds()) milli[h.pod_uid] += h.milli;
  EXPECT_EQ(milli["uid-slice"], 428);
  EXPECT_EQ(milli["uid-replica"], 250);
  EXPECT_EQ(State().devices.size(), 4u);  // 2 A100s (4 x 3g over 7 slices) + 2 T4s
}

TEST_F(ReconcilerTest, RestartNeitherDuplicatesNorLoses) {
  {
    auto r = NewReconciler();
    r->Node(GpuNode("n1", 2), AtMinute(0));
    r->NodesListed({"n1"}, AtMinute(10));
    r->Pod(Running(GpuPod("a", 1, "n1"), 3), AtMinute(10));
    r->Pod(Running(GpuPod("b", 1, "n1"), 4), AtMinute(10));
    r->PodsListed({"uid-a", "uid-b"}, AtMinute(10));
    ASSERT_THAT(r->Flush(), IsOk());
  }
  auto before = Holds();
  // Restarted: `a` is unchanged, `b` vanished meanwhile, `c` started meanwhile.
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(50));
  r->NodesListed({"n1"}, AtMinute(50));
  r->PodsRelistStarted();
  r->Pod(Running(GpuPod("a", 1, "n1"), 3), AtMinute(50));
  r->Pod(Running(GpuPod("c", 1, "n1"), 20), AtMinute(50));
  r->PodsListed({"uid-a", "uid-c"}, AtMinute(50));
  ASSERT_THAT(r->Flush(), IsOk());
  auto after = Holds();
  ASSERT_EQ(after.size(), 3u);
  std::map<std::string, store::Hold> by_pod;
  for (const auto& h : after) by_pod[h.pod_uid] = h;
  EXPECT_EQ(by_pod["uid-a"].device_id, "n1/gpu0");
  EXPECT_FALSE(by_pod["uid-a"].to.has_value());
  EXPECT_EQ(by_pod["uid-b"].to, AtMinute(50));      // vanished: closed at the relist, not dropped
  EXPECT_EQ(by_pod["uid-c"].device_id, "n1/gpu1");  // b's GPU, free again
  EXPECT_EQ(by_pod["uid-c"].from, AtMinute(20));
  EXPECT_TRUE(State().pods.at("uid-b").pod.deleted.has_value());
  EXPECT_EQ(State().devices.size(), 2u);
  EXPECT_EQ(State().nodes.size(), 1u);
}

TEST_F(ReconcilerTest, ACrashMidSyncThenRestartEqualsAnUninterruptedRun) {
  std::vector<PodObject> pods;
  for (int i = 0; i < 6; ++i) pods.push_back(Running(GpuPod("p" + std::to_string(i), 1 + i % 2, "n1"), 3 + i));
  std::set<std::string> uids;
  for (const auto& p : pods) uids.insert(p.uid);
  store::MemoryLiveInventoryRepository uninterrupted;
  {
    ReconcilerOptions options;
    options.cluster = "c1";
    Reconciler r(options, &uninterrupted, nullptr, &clock_);
    ASSERT_THAT(r.Start(), IsOk());
    r.Node(GpuNode("n1", 8), AtMinute(9));
    for (const auto& p : pods) r.Pod(p, AtMinute(9));
    r.PodsListed(uids, AtMinute(9));
    ASSERT_THAT(r.Flush(), IsOk());
  }
  {
    auto r = NewReconciler();
    r->Node(GpuNode("n1", 8), AtMinute(9));
    for (int i = 0; i < 3; ++i) r->Pod(pods[i], AtMinute(9));
    ASSERT_THAT(r->Flush(), IsOk());  // then killed
  }
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 8), AtMinute(9));
  r->PodsRelistStarted();
  for (auto it = pods.rbegin(); it != pods.rend(); ++it) r->Pod(*it, AtMinute(9));  // another order
  r->PodsListed(uids, AtMinute(9));
  ASSERT_THAT(r->Flush(), IsOk());
  const auto& want = *uninterrupted.State("c1");
  const auto& got = State();
  ASSERT_EQ(got.holds.size(), want.holds.size());
  for (const auto& [key, h] : want.holds) {
    ASSERT_TRUE(got.holds.count(key)) << std::get<0>(key) << " " << std::get<1>(key);
    EXPECT_EQ(got.holds.at(key).milli, h.milli);
    EXPECT_EQ(got.holds.at(key).to, h.to);
  }
  EXPECT_EQ(got.pods.size(), want.pods.size());
  EXPECT_EQ(got.devices.size(), want.devices.size());
}

TEST_F(ReconcilerTest, AControllerSeenLaterFixesTheWorkload) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 1), AtMinute(0));
  PodObject p = Running(GpuPod("job-pod", 1, "n1"), 3);
  p.controller = OwnerRef{"Job", "nightly-1", "job-1"};
  r->Pod(p, AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().pods.at("uid-job-pod").pod.workload_kind, "Job");
  r->Controller({"Job", "ml", "nightly-1", "job-1", "1", OwnerRef{"CronJob", "nightly", "cj-1"}});
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().pods.at("uid-job-pod").pod.workload_kind, "CronJob");
  EXPECT_EQ(State().pods.at("uid-job-pod").pod.workload_name, "nightly");
}

TEST_F(ReconcilerTest, TeamEvidenceIsKeptNotResolved) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(0));
  r->Pod(Running(GpuPod("p", 1, "n1"), 3), AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().pods.at("uid-p").pod.team, "");
  NamespaceObject ns;
  ns.name = "ml";
  ns.annotations["fleetcap.io/team"] = "from-namespace";
  r->Namespace(ns);
  r->Namespace(ns);  // unchanged: written once
  EXPECT_EQ(r->pending(), 1u);
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().namespaces.at("ml").annotations.at("fleetcap.io/team"), "from-namespace");
  EXPECT_EQ(State().pods.at("uid-p").pod.team, "");
  PodObject labelled = Running(GpuPod("p", 1, "n1"), 3);
  labelled.labels["fleetcap.io/team"] = "from-pod";
  r->Pod(labelled, AtMinute(4));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().pods.at("uid-p").pod.team, "from-pod");
}

// A pod asking for 8 GPUs whose annotation claims 1 milli-GPU holds 8 GPUs:
// what a tenant writes on its own pod does not shrink its bill.
PodObject EightGpusClaimingOneMilli() {
  PodObject p = Running(GpuPod("greedy", 8, "n1"), 3);
  p.annotations["alibabacloud.com/gpu-milli"] = "1";
  return p;
}

TEST_F(ReconcilerTest, AShareAnnotationDoesNotShrinkAHoldWithoutThePolicysTrust) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 8), AtMinute(0));
  r->Pod(EightGpusClaimingOneMilli(), AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(Holds().size(), 8u);
  for (const auto& h : Holds()) EXPECT_EQ(h.milli, 1000) << h.device_id;
  EXPECT_EQ(State().pods.at("uid-greedy").pod.requested_milli, 8000);
}

TEST_F(ReconcilerTest, AShareAnnotationSizesTheHoldWhereThePolicyTrustsIt) {
  repo_.SetActivePolicy(1, "version: 1\ntrusted_pods:\n  - namespace: ml\n    gpu_share: true\n");
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 8), AtMinute(0));
  r->Pod(EightGpusClaimingOneMilli(), AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(Holds().size(), 1u);
  EXPECT_EQ(Holds()[0].milli, 8);  // 8 shares of 1 milli-GPU, packed on one device
}

TEST_F(ReconcilerTest, TrustFollowsThePolicyActiveWhenAHoldOpens) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 10), AtMinute(0));
  r->SetPolicy({1, "version: 1\ntrusted_pods:\n  - cluster: c1\n    gpu_share: true\n"});
  PodObject shared = Running(GpuPod("shared", 1, "n1"), 3);
  shared.annotations["alibabacloud.com/gpu-milli"] = "500";
  r->Pod(shared, AtMinute(3));
  r->SetPolicy({2, "version: 1\n"});
  r->Pod(EightGpusClaimingOneMilli(), AtMinute(4));
  r->SetPolicy({3, "version: 1\nbudgets: {}\n"});  // does not parse: what version 2 trusts stays
  PodObject later = Running(GpuPod("later", 1, "n1"), 5);
  later.annotations["alibabacloud.com/gpu-milli"] = "500";
  r->Pod(later, AtMinute(5));
  ASSERT_THAT(r->Flush(), IsOk());
  std::map<std::string, int64_t> held;
  for (const auto& h : Holds()) held[h.pod_uid] += h.milli;
  EXPECT_EQ(held["uid-shared"], 500);
  EXPECT_EQ(held["uid-greedy"], 8000);
  EXPECT_EQ(held["uid-later"], 1000);
}

TEST_F(ReconcilerTest, NodeChangesOpenAndCloseDevices) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(0));
  r->Node(GpuNode("n1", 3), AtMinute(10));  // a GPU came back
  r->Node(GpuNode("n1", 1), AtMinute(20));
  ASSERT_THAT(r->Flush(), IsOk());
  std::map<std::string, std::optional<absl::Time>> to;
  for (const auto& [key, d] : State().devices)
    to[d.device_id + "@" + std::to_string(absl::ToUnixSeconds(key.second))] = d.in_service_to;
  EXPECT_EQ(State().devices.size(), 3u);
  EXPECT_EQ(State().devices.at({"n1/gpu2", AtMinute(10)}).in_service_to, AtMinute(20));
  EXPECT_EQ(State().devices.at({"n1/gpu1", AtMinute(0)}).in_service_to, AtMinute(20));
  EXPECT_FALSE(State().devices.at({"n1/gpu0", AtMinute(0)}).in_service_to.has_value());
  r->NodeDeleted("n1", AtMinute(30));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().devices.at({"n1/gpu0", AtMinute(0)}).in_service_to, AtMinute(30));
  EXPECT_EQ(State().nodes.begin()->second.node.in_service_to, AtMinute(30));
}

// Every pair of stored holds on one device that overlap in time, as
// "device: pod-a pod-b" (whole-GPU holds: one pod at a time).
std::vector<std::string> HeldTwice(const std::vector<store::Hold>& holds) {
  std::vector<std::string> out;
  for (size_t i = 0; i < holds.size(); ++i) {
    for (size_t j = i + 1; j < holds.size(); ++j) {
      const store::Hold& a = holds[i];
      const store::Hold& b = holds[j];
      const absl::Time a_to = a.to.value_or(absl::InfiniteFuture()), b_to = b.to.value_or(absl::InfiniteFuture());
      if (a.device_id == b.device_id && a.from < b_to && b.from < a_to) {
        out.push_back(a.device_id + ": " + a.pod_uid + " " + b.pod_uid);
      }
    }
  }
  return out;
}

std::map<std::string, std::string> DeviceOf(const std::vector<store::Hold>& holds) {
  std::map<std::string, std::string> out;
  for (const auto& h : holds) out[h.pod_uid] = h.device_id;
  return out;
}

// A GPU leaves the node's allocatable (unhealthy) while a pod holds it, and
// comes back: the pod still holds it, so nobody else is given it.
TEST_F(ReconcilerTest, ADeviceThatLeavesAndComesBackIsNeverHeldTwice) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(0));
  r->Pod(Running(GpuPod("a", 1, "n1"), 3), AtMinute(3));
  r->Pod(Running(GpuPod("b", 1, "n1"), 4), AtMinute(4));
  r->Node(GpuNode("n1", 1), AtMinute(10));
  r->Node(GpuNode("n1", 2), AtMinute(20));
  r->Pod(Running(GpuPod("c", 1, "n1"), 25), AtMinute(25));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(DeviceOf(Holds()), (std::map<std::string, std::string>{{"uid-a", "n1/gpu0"}, {"uid-b", "n1/gpu1"}}));
  // b ends: its GPU is free again, for one pod.
  r->Pod(Finished(Running(GpuPod("b", 1, "n1"), 4), 30), AtMinute(30));
  r->Pod(Running(GpuPod("d", 1, "n1"), 35), AtMinute(35));
  r->Pod(Running(GpuPod("e", 1, "n1"), 36), AtMinute(36));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_THAT(HeldTwice(Holds()), ::testing::IsEmpty());
  EXPECT_EQ(DeviceOf(Holds())["uid-d"], "n1/gpu1");
  EXPECT_EQ(DeviceOf(Holds()).count("uid-e"), 0u);
}

// The same across a restart: the hold on the GPU out of service is loaded
// with the rest and still counts when the GPU comes back.
TEST_F(ReconcilerTest, ADeviceThatComesBackAfterARestartIsNeverHeldTwice) {
  {
    auto r = NewReconciler();
    r->Node(GpuNode("n1", 2), AtMinute(0));
    r->Pod(Running(GpuPod("a", 1, "n1"), 3), AtMinute(3));
    r->Pod(Running(GpuPod("b", 1, "n1"), 4), AtMinute(4));
    r->Node(GpuNode("n1", 1), AtMinute(10));
    ASSERT_THAT(r->Flush(), IsOk());
  }
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(20));
  r->NodesListed({"n1"}, AtMinute(20));
  r->PodsRelistStarted();
  r->Pod(Running(GpuPod("a", 1, "n1"), 3), AtMinute(20));
  r->Pod(Running(GpuPod("b", 1, "n1"), 4), AtMinute(20));
  r->Pod(Running(GpuPod("c", 1, "n1"), 15), AtMinute(20));
  r->PodsListed({"uid-a", "uid-b", "uid-c"}, AtMinute(20));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_THAT(HeldTwice(Holds()), ::testing::IsEmpty());
  EXPECT_EQ(DeviceOf(Holds()).count("uid-c"), 0u);
}

// A node deleted and created again under the same name, its old pods going
// after: what they release is not taken from the new node's load.
TEST_F(ReconcilerTest, PodsOfADeletedNodeDoNotFreeTheNewNodesDevices) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 1), AtMinute(0));
  r->Pod(Running(GpuPod("old", 1, "n1"), 3), AtMinute(3));
  r->NodeDeleted("n1", AtMinute(10));
  NodeObject again = GpuNode("n1", 1);
  again.created = AtMinute(11);
  r->Node(again, AtMinute(11));
  r->Pod(Running(GpuPod("new", 1, "n1"), 12), AtMinute(12));
  r->PodDeleted(Running(GpuPod("old", 1, "n1"), 3), AtMinute(13));
  r->Pod(Running(GpuPod("newer", 1, "n1"), 14), AtMinute(14));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(DeviceOf(Holds())["uid-new"], "n1/gpu0");
  EXPECT_EQ(DeviceOf(Holds()).count("uid-newer"), 0u);
}

// MIG compute instances (nvidia.com/mig-<c>c.<g>g.<mem>) share one GPU
// instance: each is charged its compute slices over the parent's.
TEST_F(ReconcilerTest, MigComputeInstancesAreChargedByTheirSlice) {
  auto r = NewReconciler();
  NodeObject mig =
      GpuNode("mig", 0, {{"nvidia.com/gpu.product", "A100-SXM4-40GB"}, {"nvidia.com/mig.strategy", "mixed"}});
  mig.allocatable = {{"nvidia.com/mig-1c.3g.20gb", 3000}};
  r->Node(mig, AtMinute(0));
  PodObject ci = Running(GpuPod("ci", 0, "mig"), 3);
  ci.containers[0].requests["nvidia.com/mig-1c.3g.20gb"] = 1000;
  r->Pod(ci, AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(Holds().size(), 1u);
  EXPECT_EQ(Holds()[0].milli, 142);  // 1/7
  EXPECT_EQ(State().devices.size(), 1u);
}

TEST_F(ReconcilerTest, AFailedWriteIsKeptAndWrittenWhole) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 1), AtMinute(0));
  r->Pod(Running(GpuPod("p", 1, "n1"), 3), AtMinute(3));
  repo_.FailNextApplies(1);
  EXPECT_EQ(r->Flush().code(), absl::StatusCode::kUnavailable);
  EXPECT_GT(r->pending(), 0u);
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(r->pending(), 0u);
  EXPECT_EQ(Holds().size(), 1u);
}

// One record the store refuses (as PostgreSQL refuses a value it cannot
// hold) costs only itself: it is set aside, everything else is written, and
// later changes are written as they come.
TEST_F(ReconcilerTest, ARecordTheStoreRefusesIsSetAsideAndTheRestWritten) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 4), AtMinute(0));
  r->Pod(Running(GpuPod("good", 1, "n1"), 3), AtMinute(3));
  r->Pod(Running(GpuPod("bad", 1, "n1"), 3), AtMinute(3));
  r->Pod(Running(GpuPod("also-good", 1, "n1"), 3), AtMinute(3));
  repo_.RefuseRecordsMentioning("Pod ml/bad ");
  clock_.Advance(absl::Minutes(7));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(r->pending(), 0u);
  EXPECT_EQ(State().pods.count("uid-good"), 1u);
  EXPECT_EQ(State().pods.count("uid-also-good"), 1u);
  EXPECT_EQ(State().pods.count("uid-bad"), 0u);
  EXPECT_EQ(Holds().size(), 3u);  // its hold is a fact the store can keep
  ASSERT_EQ(State().quarantine.size(), 1u);
  const store::QuarantineRecord& aside = State().quarantine[0];
  EXPECT_EQ(aside.source, "k8s");
  EXPECT_EQ(aside.cluster, "c1");
  EXPECT_EQ(aside.object_key, "Pod ml/bad uid=uid-bad");
  EXPECT_THAT(aside.reason, ::testing::HasSubstr("injected refusal"));
  EXPECT_THAT(aside.payload, ::testing::HasSubstr("requested_milli=1000"));
  EXPECT_EQ(aside.at, AtMinute(7));  // when it was set aside, on the reconciler's clock
  r->Pod(Running(GpuPod("later", 1, "n1"), 5), AtMinute(5));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(State().pods.count("uid-later"), 1u);
  EXPECT_EQ(State().quarantine.size(), 1u);
}

// The same before the store sees it: a record that fails the store's checks
// is set aside and never sent with the others.
TEST_F(ReconcilerTest, ARecordThatFailsValidationIsSetAsideBeforeTheWrite) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(0));
  PodObject nameless = Running(GpuPod("nameless", 1, "n1"), 3);
  nameless.uid.clear();
  r->Pod(nameless, AtMinute(3));
  r->Pod(Running(GpuPod("good", 1, "n1"), 3), AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(repo_.applies(), 1);
  EXPECT_EQ(State().pods.count("uid-good"), 1u);
  ASSERT_EQ(Holds().size(), 1u);
  EXPECT_EQ(Holds()[0].pod_uid, "uid-good");
  std::set<std::string> reasons;
  for (const auto& q : State().quarantine) {
    reasons.insert(q.reason);
    EXPECT_EQ(q.at, kReconcileT0);
  }
  EXPECT_EQ(reasons, (std::set<std::string>{"pods[0].uid: empty", "holds[0].pod_uid: empty"}));
}

// An outage is not a refusal: nothing is set aside, and everything is
// written once the store is back.
TEST_F(ReconcilerTest, AnOutageSetsNothingAsideAndLosesNothing) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 2), AtMinute(0));
  r->Pod(Running(GpuPod("a", 1, "n1"), 3), AtMinute(3));
  repo_.FailNextApplies(3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(r->Flush().code(), absl::StatusCode::kUnavailable);
  r->Pod(Running(GpuPod("b", 1, "n1"), 4), AtMinute(4));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_EQ(r->pending(), 0u);
  EXPECT_EQ(Holds().size(), 2u);
  EXPECT_EQ(State().pods.size(), 2u);
  EXPECT_TRUE(State().quarantine.empty());
}

TEST_F(ReconcilerTest, APodOnANodeNotYetSeenWaitsForIt) {
  auto r = NewReconciler();
  r->Pod(Running(GpuPod("early", 1, "late"), 3), AtMinute(3));
  EXPECT_TRUE(Holds().empty());
  r->Node(GpuNode("late", 1), AtMinute(4));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(Holds().size(), 1u);
  EXPECT_EQ(Holds()[0].from, AtMinute(3));
}

TEST_F(ReconcilerTest, APodOnANodeWithoutDevicesYetHoldsOnceTheyAppear) {
  auto r = NewReconciler();
  r->Node(GpuNode("n1", 0), AtMinute(0));  // the device plugin has not registered yet
  r->Pod(Running(GpuPod("early", 1, "n1"), 3), AtMinute(3));
  ASSERT_THAT(r->Flush(), IsOk());
  EXPECT_TRUE(Holds().empty());
  r->Node(GpuNode("n1", 1), AtMinute(4));
  ASSERT_THAT(r->Flush(), IsOk());
  ASSERT_EQ(Holds().size(), 1u);
  EXPECT_EQ(Holds()[0].from, AtMinute(3));
}

}  // namespace
}  // namespace fleetcap::k8s

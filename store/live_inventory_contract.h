#pragma once
// The behaviour every LiveInventoryRepository promises, as test steps shared
// by the in-memory fake's unit test and the PostgreSQL integration test.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "store/cluster_inventory_changes.h"
#include "store/live_inventory_repository.h"
#include "store/test_inventory.h"

namespace fleetcap::store::contract {

inline absl::Time T(int minutes) { return absl::FromUnixSeconds(1767225600) + absl::Minutes(minutes); }

inline InventoryChanges FirstSight() {
  InventoryChanges c;
  c.cluster = "live";
  c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
  c.nodes = {{{"n1", "pool-a", 64000, 524288, T(0), std::nullopt}, ""}};
  c.devices = {{"n1/gpu0", "n1", 0, "H100", T(0), std::nullopt}, {"n1/gpu1", "n1", 1, "H100", T(0), std::nullopt}};
  LivePod pod{{"uid-a", "ml", "train-0", "vision", "Job", "train", "Running", T(1), T(2), std::nullopt, 2000, false},
              "n1"};
  c.pods = {pod};
  c.holds = {{"uid-a", "n1/gpu0", 1000, T(3), std::nullopt}, {"uid-a", "n1/gpu1", 1000, T(3), std::nullopt}};
  return c;
}

inline void ExpectOpenHolds(LiveInventoryRepository& repo, size_t open, size_t closed) {
  auto live = repo.LoadLive("live");
  ASSERT_TRUE(live.ok()) << live.status();
  size_t o = 0, c = 0;
  for (const auto& h : live->holds) (h.to.has_value() ? c : o)++;
  EXPECT_EQ(o, open);
  EXPECT_EQ(c, closed);
}

inline void OpensAreIdempotent(LiveInventoryRepository& repo) {
  ASSERT_TRUE(repo.Apply(FirstSight()).ok());
  ASSERT_TRUE(repo.Apply(FirstSight()).ok());  // an ingest restarted after its commit
  auto live = repo.LoadLive("live");
  ASSERT_TRUE(live.ok()) << live.status();
  ASSERT_EQ(live->nodes.size(), 1u);
  EXPECT_EQ(live->nodes[0].node.pool, "pool-a");
  EXPECT_EQ(live->nodes[0].node.in_service_from, T(0));
  EXPECT_EQ(live->devices.size(), 2u);
  ASSERT_EQ(live->pods.size(), 1u);
  EXPECT_EQ(live->pods[0].node, "n1");
  EXPECT_EQ(live->pods[0].pod.scheduled, T(2));
  EXPECT_EQ(live->pods[0].pod.workload_kind, "Job");
  EXPECT_EQ(live->holds.size(), 2u);
  EXPECT_TRUE(repo.LoadLive("never-seen").ok());
  EXPECT_TRUE(repo.LoadLive("never-seen")->pods.empty());
}

inline void ClosesKeepTheFirstClose(LiveInventoryRepository& repo) {
  ASSERT_TRUE(repo.Apply(FirstSight()).ok());
  InventoryChanges close;
  close.cluster = "live";
  close.close_holds = {{"uid-a", "n1/gpu0", T(3), T(10)}};
  ASSERT_TRUE(repo.Apply(close).ok());
  close.close_holds = {{"uid-a", "n1/gpu0", T(3), T(20)}};
  ASSERT_TRUE(repo.Apply(close).ok());
  // Seen open again (a stale relist): stays closed.
  ASSERT_TRUE(repo.Apply(FirstSight()).ok());
  auto live = repo.LoadLive("live");
  ASSERT_TRUE(live.ok());
  for (const auto& h : live->holds) {
    if (h.device_id == "n1/gpu0") {
      EXPECT_EQ(h.to, T(10));
    } else {
      EXPECT_FALSE(h.to.has_value());
    }
  }
  // A hold written closed closes the open one; a close before the start is raised to it.
  InventoryChanges closed = FirstSight();
  closed.holds.resize(1);
  closed.holds[0].device_id = "n1/gpu1";
  closed.holds[0].to = T(30);
  ASSERT_TRUE(repo.Apply(closed).ok());
  ExpectOpenHolds(repo, 0, 2);
  InventoryChanges early;
  early.cluster = "live";
  early.close_nodes = {{"n1", "", T(0), T(-5)}};
  ASSERT_TRUE(repo.Apply(early).ok());
  EXPECT_TRUE(repo.LoadLive("live")->nodes.empty());
}

inline void DeletedPodsLeaveTheLiveSet(LiveInventoryRepository& repo) {
  InventoryChanges c = FirstSight();
  LivePod other{{"uid-b", "ml", "train-1", "vision", "Job", "train", "Running", T(1), T(2), std::nullopt, 1000, false},
                "n1"};
  c.pods.push_back(other);
  c.holds[1].pod_uid = "uid-b";
  ASSERT_TRUE(repo.Apply(c).ok());
  InventoryChanges gone;
  gone.cluster = "live";
  gone.pods = {c.pods[0]};
  gone.pods[0].pod.deleted = T(50);
  gone.close_holds = {{"uid-a", "n1/gpu0", T(3), T(50)}};
  // uid-b is marked deleted but its hold left open: it is still reported, to be closed.
  gone.pods.push_back(other);
  gone.pods[1].pod.deleted = T(50);
  ASSERT_TRUE(repo.Apply(gone).ok());
  auto live = repo.LoadLive("live");
  ASSERT_TRUE(live.ok());
  EXPECT_TRUE(live->pods.empty());
  ASSERT_EQ(live->holds.size(), 1u);
  EXPECT_EQ(live->holds[0].pod_uid, "uid-b");
  // A deleted pod seen again (an old event) stays deleted.
  ASSERT_TRUE(repo.Apply(FirstSight()).ok());
  EXPECT_TRUE(repo.LoadLive("live")->pods.empty());
}

inline void DemandOpensAndCloses(LiveInventoryRepository& repo) {
  InventoryChanges c;
  c.cluster = "live";
  c.pods = {
      {{"uid-p", "ml", "wait", "vision", "Pod", "wait", "Pending", T(0), std::nullopt, std::nullopt, 4000, true}, ""}};
  c.demands = {{"uid-p", "nvidia.com/gpu", "H100", 4000, T(0), std::nullopt}};
  ASSERT_TRUE(repo.Apply(c).ok());
  ASSERT_TRUE(repo.Apply(c).ok());
  auto live = repo.LoadLive("live");
  ASSERT_TRUE(live.ok());
  ASSERT_EQ(live->demands.size(), 1u);
  EXPECT_EQ(live->demands[0].model, "H100");
  EXPECT_FALSE(live->demands[0].to.has_value());
  InventoryChanges met;
  met.cluster = "live";
  met.close_demands = {{"uid-p", "", T(0), T(7)}};
  ASSERT_TRUE(repo.Apply(met).ok());
  ASSERT_TRUE(repo.Apply(c).ok());  // replayed open: stays closed
  live = repo.LoadLive("live");
  ASSERT_EQ(live->demands.size(), 1u);
  EXPECT_EQ(live->demands[0].to, T(7));
}

inline void BadChangesAreRefusedWhole(LiveInventoryRepository& repo) {
  InventoryChanges c = FirstSight();
  c.holds[1].milli = 1001;
  auto status = repo.Apply(c);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(status.message()).find("holds[1].milli"), std::string::npos) << status;
  EXPECT_TRUE(repo.LoadLive("live")->pods.empty());
  c = FirstSight();
  c.cluster.clear();
  EXPECT_EQ(repo.Apply(c).code(), absl::StatusCode::kInvalidArgument);
  c = FirstSight();
  c.holds[0].to = T(-1);
  EXPECT_EQ(repo.Apply(c).code(), absl::StatusCode::kInvalidArgument);
}

inline void DuplicatesInOneBatchAreMerged(LiveInventoryRepository& repo) {
  InventoryChanges c = FirstSight();
  c.pods.push_back(c.pods[0]);
  c.pods[1].pod.phase = "Succeeded";
  c.holds.push_back(c.holds[0]);
  c.holds.back().to = T(9);
  c.devices.push_back(c.devices[0]);
  ASSERT_TRUE(repo.Apply(c).ok());
  auto live = repo.LoadLive("live");
  ASSERT_TRUE(live.ok());
  EXPECT_EQ(live->pods[0].pod.phase, "Succeeded");
  EXPECT_EQ(live->devices.size(), 2u);
  ExpectOpenHolds(repo, 1, 1);
}

// TestInventory (store/test_inventory.h), written as one batch of changes.
inline void SummarizesWhatWasInServiceAndHeldAtAnInstant(LiveInventoryRepository& repo) {
  ASSERT_TRUE(repo.Apply(ChangesOf(TestInventory())).ok());
  const absl::Time t0 = TestT0();
  const absl::Duration h = absl::Hours(1);
  auto at_start = repo.SummarizeAt("c1", t0);
  ASSERT_TRUE(at_start.ok()) << at_start.status();
  EXPECT_EQ(*at_start, (std::vector<ModelCount>{{"T4", 2, 1000}}));
  auto at_90min = repo.SummarizeAt("c1", t0 + 1.5 * h);
  ASSERT_TRUE(at_90min.ok());
  EXPECT_EQ(*at_90min, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 1250}}));
  // Half-open intervals: at T0+2h the whole-GPU hold has ended; at T0+3h the A100 left service.
  auto at_2h = repo.SummarizeAt("", t0 + 2 * h);
  ASSERT_TRUE(at_2h.ok());
  EXPECT_EQ(*at_2h, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 250}}));
  auto at_3h = repo.SummarizeAt("", t0 + 3 * h);
  ASSERT_TRUE(at_3h.ok());
  EXPECT_EQ(*at_3h, (std::vector<ModelCount>{{"T4", 2, 250}}));
  EXPECT_EQ(repo.SummarizeAt("nope", t0).status().code(), absl::StatusCode::kNotFound);
}

// A recorded history written again (a replay run twice) is stored once.
inline void ARecordedHistoryAppliedTwiceIsStoredOnce(LiveInventoryRepository& repo) {
  ASSERT_TRUE(repo.Apply(ChangesOf(TestInventory())).ok());
  ASSERT_TRUE(repo.Apply(ChangesOf(TestInventory())).ok());
  auto live = repo.LoadLive("c1");
  ASSERT_TRUE(live.ok()) << live.status();
  EXPECT_EQ(live->pods.size(), 3u);
  EXPECT_EQ(live->holds.size(), 3u);
  EXPECT_EQ(live->devices.size(), 2u);  // in service now: a100-0 left at T0+3h
  auto summary = repo.SummarizeAt("c1", TestT0() + absl::Minutes(90));
  ASSERT_TRUE(summary.ok());
  EXPECT_EQ(*summary, (std::vector<ModelCount>{{"A100", 1, 1000}, {"T4", 2, 1250}}));
}

// The labels that named a node's model and pool are kept with it, and a
// flavor's nodes are selected by the ones all of them share.
inline void KeepsTheLabelsThatNamedANodesModelAndPool(LiveInventoryRepository& repo) {
  InventoryChanges c = FirstSight();
  c.types.push_back({"A100-SXM4-40GB", "nvidia", "nvidia.com/gpu"});
  c.nodes[0].model_label_key = "nvidia.com/gpu.product";
  c.nodes[0].model_label_value = "NVIDIA-H100-80GB-HBM3";
  c.nodes[0].pool_label_key = "cloud.google.com/gke-nodepool";
  auto a100_node = [&](std::string name, std::string pool) {
    LiveNode n{{name, pool, 64000, 524288, T(0), std::nullopt}, ""};
    n.model_label_key = "nvidia.com/gpu.product";
    n.model_label_value = "NVIDIA-A100-SXM4-40GB";
    n.pool_label_key = "cloud.google.com/gke-nodepool";
    c.devices.push_back({name + "/gpu0", name, 0, "A100-SXM4-40GB", T(0), std::nullopt});
    return n;
  };
  c.nodes.push_back(a100_node("n2", "pool-b"));
  c.nodes.push_back(a100_node("n3", "pool-b"));
  c.nodes.push_back(a100_node("n4", "pool-c"));
  ASSERT_TRUE(repo.Apply(c).ok());

  auto live = repo.LoadLive("live");
  ASSERT_TRUE(live.ok()) << live.status();
  ASSERT_EQ(live->nodes.size(), 4u);
  for (const LiveNode& n : live->nodes) {
    if (n.node.name != "n1") continue;
    EXPECT_EQ(n.model_label_key, "nvidia.com/gpu.product");
    EXPECT_EQ(n.model_label_value, "NVIDIA-H100-80GB-HBM3");
    EXPECT_EQ(n.pool_label_key, "cloud.google.com/gke-nodepool");
  }

  using Labels = std::map<std::string, std::string>;
  auto a100 = repo.SharedNodeLabels("A100-SXM4-40GB", "", "*");
  ASSERT_TRUE(a100.ok()) << a100.status();
  // Two pools: only the model's label is shared by every node.
  EXPECT_EQ(*a100, (Labels{{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}}));
  auto pool_b = repo.SharedNodeLabels("A100-SXM4-40GB", "pool-b", "*");
  ASSERT_TRUE(pool_b.ok()) << pool_b.status();
  EXPECT_EQ(*pool_b,
            (Labels{{"cloud.google.com/gke-nodepool", "pool-b"}, {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}}));
  auto h100 = repo.SharedNodeLabels("H100", "", "*");
  ASSERT_TRUE(h100.ok()) << h100.status();
  EXPECT_EQ(*h100,
            (Labels{{"cloud.google.com/gke-nodepool", "pool-a"}, {"nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"}}));
  auto unknown = repo.SharedNodeLabels("T4", "", "*");
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  EXPECT_TRUE(unknown->empty());

  // A node of the model with no label recorded (a replayed trace) leaves the
  // model's label unshared; a node out of service counts no more.
  InventoryChanges bare;
  bare.cluster = "replayed";
  bare.types = c.types;
  bare.nodes = {{{"r1", "pool-b", 64000, 524288, T(0), std::nullopt}, ""}};
  bare.devices = {{"r1/gpu0", "r1", 0, "A100-SXM4-40GB", T(0), std::nullopt}};
  ASSERT_TRUE(repo.Apply(bare).ok());
  auto mixed = repo.SharedNodeLabels("A100-SXM4-40GB", "pool-b", "*");
  ASSERT_TRUE(mixed.ok()) << mixed.status();
  EXPECT_TRUE(mixed->empty()) << mixed->size();
  InventoryChanges gone;
  gone.cluster = "replayed";
  gone.close_nodes = {{"r1", "", T(0), T(5)}};
  gone.close_devices = {{"r1/gpu0", "", T(0), T(5)}};
  ASSERT_TRUE(repo.Apply(gone).ok());
  auto after = repo.SharedNodeLabels("A100-SXM4-40GB", "pool-b", "*");
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(*after, *pool_b);
}

// A flavor limited to some clusters selects its nodes there only: nodes of
// its model in other clusters, labelled otherwise, do not count. The pattern
// is a glob (`*`, `?`; common/glob.h), and other characters are themselves
// (`_` is no wildcard).
inline void SharesTheLabelsOfTheNodesInTheClustersAPatternCovers(LiveInventoryRepository& repo) {
  auto a100_cluster = [](std::string cluster, std::string product) {
    InventoryChanges c;
    c.cluster = cluster;
    c.types = {{"A100-SXM4-40GB", "nvidia", "nvidia.com/gpu"}};
    LiveNode n{{"n1", "pool-a", 64000, 524288, T(0), std::nullopt}, ""};
    n.model_label_key = "nvidia.com/gpu.product";
    n.model_label_value = product;
    c.nodes = {n};
    c.devices = {{"n1/gpu0", "n1", 0, "A100-SXM4-40GB", T(0), std::nullopt}};
    return c;
  };
  ASSERT_TRUE(repo.Apply(a100_cluster("gpu_east", "NVIDIA-A100-SXM4-40GB")).ok());
  ASSERT_TRUE(repo.Apply(a100_cluster("gpuXeast", "NVIDIA-A100-SXM4-40GB-MIG")).ok());

  using Labels = std::map<std::string, std::string>;
  const Labels east = {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB"}};
  const Labels x_east = {{"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG"}};
  for (const auto& [pattern, want] :
       std::vector<std::pair<std::string, Labels>>{{"*", {}},            // both clusters: the product differs
                                                   {"gpu_east", east},   // exactly one
                                                   {"gpu_*", east},      // `_` is no wildcard
                                                   {"gpu?east", {}},     // `?` is one character: both
                                                   {"*X*", x_east},      // only the other
                                                   {"gpu_east*", east},  // a run of none
                                                   {"west", {}}}) {      // no such cluster
    auto labels = repo.SharedNodeLabels("A100-SXM4-40GB", "", pattern);
    ASSERT_TRUE(labels.ok()) << labels.status();
    EXPECT_EQ(*labels, want) << pattern;
  }
}

}  // namespace fleetcap::store::contract

// Instantiates the contract as tests of fixture `Fixture`, whose `repo()` is
// a fresh repository per test.
#define FLEETCAP_LIVE_INVENTORY_CONTRACT_TESTS(Fixture)                                                            \
  TEST_F(Fixture, OpensAreIdempotent) { ::fleetcap::store::contract::OpensAreIdempotent(repo()); }                 \
  TEST_F(Fixture, ClosesKeepTheFirstClose) { ::fleetcap::store::contract::ClosesKeepTheFirstClose(repo()); }       \
  TEST_F(Fixture, DeletedPodsLeaveTheLiveSet) { ::fleetcap::store::contract::DeletedPodsLeaveTheLiveSet(repo()); } \
  TEST_F(Fixture, DemandOpensAndCloses) { ::fleetcap::store::contract::DemandOpensAndCloses(repo()); }             \
  TEST_F(Fixture, BadChangesAreRefusedWhole) { ::fleetcap::store::contract::BadChangesAreRefusedWhole(repo()); }   \
  TEST_F(Fixture, DuplicatesInOneBatchAreMerged) {                                                                 \
    ::fleetcap::store::contract::DuplicatesInOneBatchAreMerged(repo());                                            \
  }                                                                                                                \
  TEST_F(Fixture, SummarizesWhatWasInServiceAndHeldAtAnInstant) {                                                  \
    ::fleetcap::store::contract::SummarizesWhatWasInServiceAndHeldAtAnInstant(repo());                             \
  }                                                                                                                \
  TEST_F(Fixture, ARecordedHistoryAppliedTwiceIsStoredOnce) {                                                      \
    ::fleetcap::store::contract::ARecordedHistoryAppliedTwiceIsStoredOnce(repo());                                 \
  }                                                                                                                \
  TEST_F(Fixture, KeepsTheLabelsThatNamedANodesModelAndPool) {                                                     \
    ::fleetcap::store::contract::KeepsTheLabelsThatNamedANodesModelAndPool(repo());                                \
  }                                                                                                                \
  TEST_F(Fixture, SharesTheLabelsOfTheNodesInTheClustersAPatternCovers) {                                          \
    ::fleetcap::store::contract::SharesTheLabelsOfTheNodesInTheClustersAPatternCovers(repo());                     \
  }

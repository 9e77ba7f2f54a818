#pragma once
// A small hand-made inventory shared by the repository tests (the fake's unit
// test and the PostgreSQL integration test assert the same figures on it).

#include <string>
#include <utility>
#include <vector>

#include "store/inventory.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::store {

// Cluster `c1`: node n1 with two T4s (t4-0, t4-1) in service from T0; node n2
// with one A100 (a100-0) from T0 + 1h to T0 + 3h. Pods: `whole` holds t4-0
// over [T0, T0+2h); `share` holds 250 of t4-1 over [T0+1h, open); `big` holds
// a100-0 from T0+1h, open.
inline absl::Time TestT0() { return absl::FromUnixSeconds(1767225600); }  // 2026-01-01T00:00:00Z

inline ClusterInventory TestInventory() {
  const absl::Time t0 = TestT0();
  const absl::Duration h = absl::Hours(1);
  ClusterInventory inv;
  inv.cluster = "c1";
  inv.types = {{"T4", "nvidia", "nvidia.com/gpu"}, {"A100", "nvidia", "nvidia.com/gpu"}};
  inv.nodes = {{"n1", "pool-a", 32000, 65536, t0, std::nullopt}, {"n2", "pool-b", 64000, 131072, t0 + h, t0 + 3 * h}};
  inv.devices = {{"t4-0", "n1", 0, "T4", t0, std::nullopt},
                 {"t4-1", "n1", 1, "T4", t0, std::nullopt},
                 {"a100-0", "n2", 0, "A100", t0 + h, t0 + 3 * h}};
  auto pod = [&](std::string uid, int64_t milli) {
    return Pod{uid, "team-a", uid, "team-a", "Pod", uid, "Running", t0, t0, std::nullopt, milli, false};
  };
  inv.pods = {pod("whole", 1000), pod("share", 250), pod("big", 1000)};
  inv.holds = {{"whole", "t4-0", 1000, t0, t0 + 2 * h},
               {"share", "t4-1", 250, t0 + h, std::nullopt},
               {"big", "a100-0", 1000, t0 + h, std::nullopt}};
  return inv;
}

// Nodes of cluster `c1`, each (name, pool) with one A100-SXM4-80GB GPU
// (`<name>/gpu0`), labelled as NVIDIA's GPU feature discovery labels them
// (nvidia.com/gpu.product: NVIDIA-A100-SXM4-80GB) in the pool that
// cloud.google.com/gke-nodepool names: what the Kubernetes ingest stores.
inline InventoryChanges LabelledA100Nodes(const std::vector<std::pair<std::string, std::string>>& nodes) {
  const absl::Time since = absl::FromUnixSeconds(1'772'000'000);
  InventoryChanges changes;
  changes.cluster = "c1";
  changes.types = {{"A100-SXM4-80GB", "nvidia", "nvidia.com/gpu"}};
  for (const auto& [name, pool] : nodes) {
    LiveNode node({name, pool, 64000, 524288, since, std::nullopt}, "");
    node.model_label_key = "nvidia.com/gpu.product";
    node.model_label_value = "NVIDIA-A100-SXM4-80GB";
    node.pool_label_key = "cloud.google.com/gke-nodepool";
    changes.nodes.push_back(node);
    changes.devices.push_back({name + "/gpu0", name, 0, "A100-SXM4-80GB", since, std::nullopt});
  }
  return changes;
}

}  // namespace fleetcap::store

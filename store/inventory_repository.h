#pragma once
// The inventory aggregate: clusters, accelerator types, nodes, devices, pods
// and holds. Ingest writes it; the API reads it. Implementations are
// thread-compatible: share one between threads only with outside locking,
// or give each thread its own.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "store/inventory.h"

namespace fleetcap::store {

struct ModelCount {
  std::string model;
  int64_t devices = 0;     // devices in service at the instant
  int64_t held_milli = 0;  // milli-devices held on them at the instant

  friend bool operator==(const ModelCount& a, const ModelCount& b) {
    return a.model == b.model && a.devices == b.devices && a.held_milli == b.held_milli;
  }
};

class InventoryRepository {
 public:
  virtual ~InventoryRepository() = default;

  // Replaces everything stored about `inventory.cluster` with `inventory`,
  // atomically: readers see the old inventory or the new one, never a mix.
  virtual absl::Status ReplaceClusterInventory(const ClusterInventory& inventory) = 0;

  // Per model (ordered by model), what was in service and held at `at`, in
  // `cluster` or, if it is empty, in every cluster. NOT_FOUND for an unknown cluster.
  virtual absl::StatusOr<std::vector<ModelCount>> SummarizeAt(const std::string& cluster, absl::Time at) = 0;
};

}  // namespace fleetcap::store

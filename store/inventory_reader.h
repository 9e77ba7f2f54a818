#pragma once
// What the fleet looks like at an instant, read from the inventory that
// ingest writes as changes (store/live_inventory_repository.h). The API holds
// only this: it reads the inventory and never writes it. Implementations are
// thread-compatible, like the repository they are part of.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

struct ModelCount {
  std::string model;
  int64_t devices = 0;     // devices in service at the instant
  int64_t held_milli = 0;  // milli-devices held on them at the instant

  friend bool operator==(const ModelCount& a, const ModelCount& b) {
    return a.model == b.model && a.devices == b.devices && a.held_milli == b.held_milli;
  }
};

class InventoryReader {
 public:
  virtual ~InventoryReader() = default;

  // Per model (ordered by model), what was in service and held at `at`, in
  // `cluster` or, if it is empty, in every cluster. Held milli-devices count
  // only on devices in service at the instant. NOT_FOUND for an unknown cluster.
  virtual absl::StatusOr<std::vector<ModelCount>> SummarizeAt(const std::string& cluster, absl::Time at) = 0;

  // The node labels (key -> value) that every node in service of `model`
  // (one with a device of that model in service) carries, in the clusters
  // whose name matches `cluster` (a glob, common/glob.h: "*" for every
  // cluster, as a policy flavor's `cluster`), and only those of `pool` when
  // it is not empty: the label that named the node's model and the one that
  // named its pool. A label some of those nodes lack or carry with another
  // value is left out. Empty when no such node is in service or no label was
  // recorded for them.
  virtual absl::StatusOr<std::map<std::string, std::string>> SharedNodeLabels(const std::string& model,
                                                                              const std::string& pool,
                                                                              const std::string& cluster) = 0;
};

}  // namespace fleetcap::store

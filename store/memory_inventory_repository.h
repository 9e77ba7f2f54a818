#pragma once
// In-memory InventoryRepository for unit tests: the same contract as the
// PostgreSQL one, computed by brute force.

#include <map>
#include <string>

#include "store/inventory_repository.h"

namespace fleetcap::store {

class MemoryInventoryRepository : public InventoryRepository {
 public:
  absl::Status ReplaceClusterInventory(const ClusterInventory& inventory) override;
  absl::StatusOr<std::vector<ModelCount>> SummarizeAt(const std::string& cluster, absl::Time at) override;

 private:
  std::map<std::string, ClusterInventory> clusters_;
};

}  // namespace fleetcap::store

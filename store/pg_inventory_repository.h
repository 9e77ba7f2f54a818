#pragma once
// InventoryRepository on PostgreSQL. Bulk writes go through COPY.

#include "common/pg_pool.h"
#include "store/inventory_repository.h"

namespace fleetcap::store {

class PgInventoryRepository : public InventoryRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgInventoryRepository(PgPool* pool) : pool_(pool) {}

  absl::Status ReplaceClusterInventory(const ClusterInventory& inventory) override;
  absl::StatusOr<std::vector<ModelCount>> SummarizeAt(const std::string& cluster, absl::Time at) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

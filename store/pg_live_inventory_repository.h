#pragma once
// LiveInventoryRepository on PostgreSQL. A batch is copied (COPY) into
// session temp tables and merged with INSERT ... ON CONFLICT and UPDATE ...
// FROM in one transaction, so 200,000 pods cost a few statements, not
// 200,000 round trips; a batch that outgrows a table's planner statistics
// analyzes it in that transaction (a cluster's first sync).

#include "common/pg_pool.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::store {

class PgLiveInventoryRepository : public LiveInventoryRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgLiveInventoryRepository(PgPool* pool) : pool_(pool) {}

  absl::Status Apply(const InventoryChanges& changes) override;
  absl::StatusOr<LiveInventory> LoadLive(const std::string& cluster) override;
  absl::StatusOr<ActivePolicyText> ActivePolicy() override;
  absl::StatusOr<std::vector<ModelCount>> SummarizeAt(const std::string& cluster, absl::Time at) override;
  absl::StatusOr<std::map<std::string, std::string>> SharedNodeLabels(const std::string& model, const std::string& pool,
                                                                      const std::string& cluster) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

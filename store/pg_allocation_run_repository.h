#pragma once
// AllocationRunRepository on PostgreSQL (allocation_runs and
// allocation_recommendations, migrations 0001 and 0018).
//
// A run is stored in one transaction that first takes a transaction-scoped
// advisory lock, so runs commit in the order of their ids: a reader that has
// seen run N never later finds a smaller id appear (the API's watch relies on
// it). The recommendations go in with COPY.

#include "common/pg_pool.h"
#include "store/allocation_run_repository.h"

namespace fleetcap::store {

class PgAllocationRunRepository : public AllocationRunRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgAllocationRunRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<int64_t> StoreRun(const AllocationRunDraft& run) override;
  absl::StatusOr<std::optional<int64_t>> LatestRunId() override;
  absl::StatusOr<std::optional<AllocationRunRecord>> LatestRun() override;
  absl::StatusOr<std::optional<AllocationRunRecord>> RunBefore(int64_t run_id) override;

 private:
  // The newest run whose id is below `run_id`, with its recommendations.
  absl::StatusOr<std::optional<AllocationRunRecord>> NewestBefore(int64_t run_id);

  PgPool* pool_;
};

}  // namespace fleetcap::store

#pragma once
// PendingWaitsRepository on PostgreSQL: pending_demand joined with pods.

#include <cstdint>
#include <vector>

#include "common/pg_pool.h"
#include "store/pending_waits_repository.h"

namespace fleetcap::store {

// On PostgreSQL. `pool` must outlive it; thread-safe.
class PgPendingWaitsRepository : public PendingWaitsRepository {
 public:
  explicit PgPendingWaitsRepository(PgPool* pool) : pool_(pool) {}
  absl::StatusOr<std::vector<PendingWaitRecord>> Waits(absl::Time start, absl::Time end, int64_t limit) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

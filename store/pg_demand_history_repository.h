#pragma once
// DemandHistoryRepository on PostgreSQL: held device time from
// chargeback_hourly_by_team (migration 0015), waits from pending_demand
// (migration 0002) with the pods' team evidence.

#include "common/pg_pool.h"
#include "store/demand_history_repository.h"

namespace fleetcap::store {

class PgDemandHistoryRepository : public DemandHistoryRepository {
 public:
  // `pool` must outlive the repository.
  explicit PgDemandHistoryRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<std::vector<HeldHourRecord>> HeldHours(absl::Time start, absl::Time end) override;
  absl::StatusOr<std::vector<PendingPodRecord>> PendingAt(absl::Time at, int64_t limit) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

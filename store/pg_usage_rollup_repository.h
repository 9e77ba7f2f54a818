#pragma once
// UsageRollupRepository on PostgreSQL (migration 0012): the stale hours are
// those usage_hour_changes lists, each rolled up from usage_minute into
// usage_hourly in a transaction of its own that also deletes the hour's change
// rows first; and, the same way, those usage_cluster_hour_changes lists into
// the cluster's hourly usage, usage_cluster_hourly (migration 0034). Read committed: the rollup reads the minutes after
// it has taken the change rows, so a writer committed by then is rolled up, and one still uncommitted leaves its change
// row for the next rollup.

#include "common/pg_pool.h"
#include "store/usage_rollup_repository.h"

namespace fleetcap::store {

class PgUsageRollupRepository : public UsageRollupRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgUsageRollupRepository(PgPool* pool) : pool_(pool) {}

  absl::Status RollUp(const std::string& cluster, absl::Time start, absl::Time end) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

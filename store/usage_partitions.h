#pragma once
// Keeps usage_minute's daily partitions: creates them `days_ahead` days in
// advance (so inserts never find a missing partition) and drops the ones
// that ended more than `retention_days` ago, and deletes the telemetry series
// not seen within `retention_days` (telemetry_series.last_seen, which
// PgUsageRepository::IdentifySeries keeps). Run at start and then hourly by
// the daemons that write usage; idempotent, safe to run concurrently.

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/pg_pool.h"

namespace fleetcap::store {

struct UsagePartitionPolicy {
  int days_ahead = 3;
  int retention_days = 400;
};

// Returns how many partitions were created plus dropped (series deleted are not counted).
absl::StatusOr<int> MaintainUsagePartitions(pqxx::connection& conn, absl::Time now, const UsagePartitionPolicy& policy);

}  // namespace fleetcap::store

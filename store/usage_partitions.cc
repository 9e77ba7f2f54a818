#include "store/usage_partitions.h"

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"

namespace fleetcap::store {

absl::StatusOr<int> MaintainUsagePartitions(pqxx::connection& conn, absl::Time now,
                                            const UsagePartitionPolicy& policy) {
  if (policy.days_ahead < 0) {
    return absl::InvalidArgumentError(absl::StrCat("days_ahead: ", policy.days_ahead, " is negative"));
  }
  if (policy.retention_days < 1) {
    return absl::InvalidArgumentError(absl::StrCat("retention_days: ", policy.retention_days, " is below 1"));
  }
  try {
    pqxx::work txn(conn);
    // Concurrent maintainers would race on CREATE TABLE; one at a time.
    txn.exec("SELECT pg_advisory_xact_lock(1970496871)");  // "usag" in ASCII
    auto changed = txn.exec_params("SELECT fleetcap_maintain_usage_partitions($1::timestamptz, $2, $3)",
                                   FormatRfc3339(now), policy.days_ahead, policy.retention_days)[0][0]
                       .as<int>();
    // The series not seen within the retention window: every minute of them
    // is gone or going with the partitions dropped above. Hourly, a scan of
    // the series table (one row per device, pod and field), not of minutes.
    txn.exec_params("DELETE FROM telemetry_series WHERE last_seen < $1::timestamptz - make_interval(days => $2)",
                    FormatRfc3339(now), policy.retention_days);
    txn.commit();
    return changed;
  } catch (const std::exception& e) {
    return PgError("maintaining usage_minute partitions", e);
  }
}

}  // namespace fleetcap::store

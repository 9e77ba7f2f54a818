#include "store/pg_usage_rollup_repository.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"

namespace fleetcap::store {
namespace {

// One hour's pod readings, sixty to a row (fleetcap_used_milli keeps
// store::UsedMilli's rounding); the minutes without a reading are NULL.
constexpr const char* kRollUpHour =
    "INSERT INTO usage_hourly (cluster, hour, pod_uid, device_id, used_milli)"
    " SELECT $1, $2::timestamptz, pod_uid, device_id,"
    " fleetcap_minute_readings(array_agg((extract(epoch FROM minute - $2::timestamptz) / 60)::integer),"
    "                          array_agg(fleetcap_used_milli(util_mean)))"
    " FROM fleetcap_usage_minutes($1, $2::timestamptz, $2::timestamptz + interval '1 hour')"
    " WHERE pod_uid <> '' AND util_mean IS NOT NULL"
    " GROUP BY pod_uid, device_id"
    " ON CONFLICT (cluster, hour, pod_uid, device_id) DO UPDATE SET used_milli = EXCLUDED.used_milli";

}  // namespace

absl::Status PgUsageRollupRepository::RollUp(const std::string& cluster, absl::Time start, absl::Time end) {
  if (end < start) {
    return absl::InvalidArgumentError(absl::StrCat("usage rollup of ", cluster, ": window end ", FormatRfc3339(end),
                                                   " is before its start ", FormatRfc3339(start)));
  }
  if (start == end) return absl::OkStatus();
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  // Each stale hour, and which of the two rollups it is stale for: the pods'
  // usage_hourly, the cluster's usage_cluster_hourly (migration 0034).
  struct Stale {
    std::string hour;
    bool pods, cluster;
  };
  std::vector<Stale> hours;
  try {
    pqxx::read_transaction txn(*lease);
    // The hours that overlap the window (a window that does not start on a whole hour rolls up its first hour too).
    for (const auto& row :
         txn.exec_params("SELECT hour, bool_or(pods), bool_or(NOT pods) FROM ("
                         "SELECT hour, true AS pods FROM usage_hour_changes WHERE cluster = $1"
                         " AND hour > $2::timestamptz - interval '1 hour' AND hour < $3::timestamptz"
                         " UNION ALL SELECT hour, false FROM usage_cluster_hour_changes WHERE cluster = $1"
                         " AND hour > $2::timestamptz - interval '1 hour' AND hour < $3::timestamptz) c GROUP BY hour "
                         "ORDER BY hour",
                         cluster, FormatRfc3339(start), FormatRfc3339(end))) {
      // As text in UTC, whatever the session's time zone.
      hours.push_back({row[0].as<std::string>(), row[1].as<bool>(), row[2].as<bool>()});
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("usage rollup of ", cluster, ": finding the stale hours"), e);
  }
  for (const Stale& stale : hours) {
    const std::string& hour = stale.hour;
    try {
      pqxx::work txn(*lease);
      if (stale.pods) {
        txn.exec_params("DELETE FROM usage_hour_changes WHERE cluster = $1 AND hour = $2::timestamptz", cluster, hour);
        // A pair with no reading left in the hour keeps no row.
        txn.exec_params("DELETE FROM usage_hourly WHERE cluster = $1 AND hour = $2::timestamptz", cluster, hour);
        txn.exec_params(kRollUpHour, cluster, hour);
      }
      if (stale.cluster) {
        txn.exec_params("DELETE FROM usage_cluster_hour_changes WHERE cluster = $1 AND hour = $2::timestamptz", cluster,
                        hour);
        txn.exec_params("SELECT fleetcap_usage_cluster_hour($1, $2::timestamptz)", cluster, hour);
      }
      txn.commit();
    } catch (const std::exception& e) {
      return PgError(absl::StrCat("usage rollup of ", cluster, ": rolling up the hour ", hour), e);
    }
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::store

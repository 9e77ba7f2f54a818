#include "store/pg_demand_history_repository.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
absl::StatusOr<std::vector<HeldHourRecord>> PgDemandHistoryRepository::HeldHours(absl::Time start, absl::Time end) {
  std::vector<HeldHourRecord> out;
  if (!(start < end)) return out;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    // The by-team rollup: a few rows per team and hour instead of every workload's line.
    for (const auto& r : txn.exec_params(
             absl::StrCat("SELECT cluster, model, team, ", EpochMicrosSql("hour"),
                          ", held_milli_seconds FROM chargeback_hourly_by_team"
                          " WHERE line_kind = 'workload' AND hour >= $1::timestamptz AND hour < $2::timestamptz"
                          " AND held_milli_seconds > 0 ORDER BY cluster, model, team, hour"),
             FormatRfc3339(start), FormatRfc3339(end))) {
      out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), MicrosField(r[3]),
                     r[4].as<int64_t>()});
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(
        absl::StrCat("demand history: reading held hours [", FormatRfc3339(start), ", ", FormatRfc3339(end), ")"), e);
  }
  return out;
}

absl::StatusOr<std::vector<PendingPodRecord>> PgDemandHistoryRepository::PendingAt(absl::Time at, int64_t limit) {
  std::vector<PendingPodRecord> out;
  if (limit <= 0) return out;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    for (const auto& r :
         txn.exec_params(absl::StrCat("SELECT d.cluster, d.pod_uid, coalesce(p.namespace, ''), coalesce(p.team, ''),"
                                      " d.resource_name, d.model, d.requested_milli, ",
                                      EpochMicrosSql("d.pending_from"),
                                      ", coalesce(p.name, '') FROM pending_demand d LEFT JOIN pods p ON p.cluster = "
                                      "d.cluster AND p.pod_uid = d.pod_uid"
                                      " WHERE d.pending_from <= $1::timestamptz"
                                      " AND (d.pending_to IS NULL OR d.pending_to > $1::timestamptz)"
                                      " AND (p.deleted_at IS NULL OR p.deleted_at > $1::timestamptz)"
                                      " ORDER BY d.pending_from, d.cluster, d.pod_uid LIMIT $2"),
                         FormatRfc3339(at), limit)) {
      out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
                     r[4].as<std::string>(), r[5].as<std::string>(), r[6].as<int64_t>(), MicrosField(r[7]),
                     r[8].as<std::string>()});
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("demand history: reading the pods pending at ", FormatRfc3339(at)), e);
  }
  return out;
}

}  // namespace fleetcap::store

#include "store/pg_pending_waits_repository.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {

absl::StatusOr<std::vector<PendingWaitRecord>> PgPendingWaitsRepository::Waits(absl::Time start, absl::Time end,
                                                                               int64_t limit) {
  std::vector<PendingWaitRecord> out;
  if (limit <= 0 || !(start < end)) return out;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    // A wait ends with its pending_to or with the pod's deletion, whichever comes first.
    const std::string until = "least(d.pending_to, p.deleted_at)";
    for (const auto& r : txn.exec_params(
             absl::StrCat("SELECT d.cluster, d.pod_uid, coalesce(p.namespace, ''), coalesce(p.team, ''),"
                          " d.resource_name, d.model, d.requested_milli, ",
                          EpochMicrosSql("d.pending_from"), ", coalesce(p.name, ''), ", EpochMicrosSql(until.c_str()),
                          " FROM pending_demand d LEFT JOIN pods p ON p.cluster = d.cluster AND p.pod_uid = d.pod_uid"
                          " WHERE d.pending_from < $2::timestamptz AND (",
                          until, " IS NULL OR ", until,
                          " > $1::timestamptz)"
                          " ORDER BY d.pending_from, d.cluster, d.pod_uid LIMIT $3"),
             FormatRfc3339(start), FormatRfc3339(end), limit)) {
      PendingWaitRecord w;
      w.pod = {r[0].as<std::string>(), r[1].as<std::string>(),
               r[2].as<std::string>(), r[3].as<std::string>(),
               r[4].as<std::string>(), r[5].as<std::string>(),
               r[6].as<int64_t>(),     absl::FromUnixMicros(r[7].as<int64_t>()),
               r[8].as<std::string>()};
      if (!r[9].is_null()) w.until = absl::FromUnixMicros(r[9].as<int64_t>());
      out.push_back(std::move(w));
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("pending waits: reading [", FormatRfc3339(start), ", ", FormatRfc3339(end), ")"), e);
  }
  return out;
}

}  // namespace fleetcap::store

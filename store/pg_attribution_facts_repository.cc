#include "store/pg_attribution_facts_repository.h"

#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"

namespace fleetcap::store {
namespace {

absl::Time Seconds(const pqxx::field& f) { return absl::FromUnixSeconds(f.as<int64_t>()); }

}  // namespace

absl::StatusOr<AttributionFactsRecord> PgAttributionFactsRepository::Facts(const std::string& cluster, absl::Time start,
                                                                           absl::Time end) const {
  FLEETCAP_RETURN_IF_ERROR(CheckFactsWindow(cluster, start, end));
  AttributionFactsRecord facts;
  if (start == end) return facts;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    // One snapshot: the three reads agree with each other.
    pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn(*lease);
    const std::string from = FormatRfc3339(start), to = FormatRfc3339(end);
    for (const auto& row : txn.exec_params(
             "SELECT device_id, node, model, extract(epoch FROM greatest(in_service_from, $2::timestamptz))::bigint,"
             " extract(epoch FROM least(coalesce(in_service_to, 'infinity'), $3::timestamptz))::bigint"
             " FROM devices WHERE cluster = $1 AND in_service_from < $3::timestamptz"
             " AND (in_service_to IS NULL OR in_service_to > $2::timestamptz)"
             " AND (in_service_to IS NULL OR in_service_to > in_service_from)"
             " ORDER BY device_id COLLATE \"C\", in_service_from",
             cluster, from, to)) {
      facts.devices.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>(),
                               Seconds(row[3]), Seconds(row[4])});
    }
    for (const auto& row : txn.exec_params(
             "SELECT h.pod_uid, coalesce(p.namespace, ''), coalesce(p.team, ''),"
             " coalesce(p.workload_kind || '/' || p.workload_name, ''), h.device_id, h.milli,"
             " extract(epoch FROM greatest(h.held_from, $2::timestamptz))::bigint,"
             " extract(epoch FROM least(coalesce(h.held_to, 'infinity'), $3::timestamptz))::bigint"
             " FROM holds h LEFT JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid"
             " WHERE h.cluster = $1 AND coalesce(h.held_to, 'infinity'::timestamptz) > $2::timestamptz"
             " AND h.held_from < $3::timestamptz"
             " AND (h.held_to IS NULL OR h.held_to > h.held_from)"
             " ORDER BY h.device_id COLLATE \"C\", greatest(h.held_from, $2::timestamptz), h.pod_uid COLLATE \"C\"",
             cluster, from, to)) {
      facts.holds.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<std::string>(),
                             row[3].as<std::string>(), row[4].as<std::string>(), row[5].as<int64_t>(), Seconds(row[6]),
                             Seconds(row[7])});
    }
    // The pods' shares only (pod_uid <> ''), minutes with a reading.
    for (const auto& row :
         txn.exec_params("SELECT pod_uid, device_id, extract(epoch FROM minute)::bigint, util_mean FROM usage_minute"
                         " WHERE cluster = $1 AND minute >= $2::timestamptz AND minute < $3::timestamptz"
                         " AND pod_uid <> '' AND util_mean IS NOT NULL"
                         " ORDER BY device_id COLLATE \"C\", pod_uid COLLATE \"C\", minute",
                         cluster, from, to)) {
      facts.usage.push_back(
          {row[0].as<std::string>(), row[1].as<std::string>(), Seconds(row[2]), UsedMilli(row[3].as<double>())});
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("attribution facts: reading the window", e);
  }
  return facts;
}

absl::StatusOr<std::vector<ClusterHistoryRecord>> PgAttributionFactsRepository::Clusters() const {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<ClusterHistoryRecord> clusters;
  try {
    pqxx::read_transaction txn(*lease);
    for (const auto& row :
         txn.exec("SELECT c.cluster, (SELECT extract(epoch FROM min(d.in_service_from))::bigint FROM devices d"
                  " WHERE d.cluster = c.cluster AND (d.in_service_to IS NULL OR d.in_service_to > d.in_service_from))"
                  " FROM clusters c ORDER BY c.cluster COLLATE \"C\"")) {
      ClusterHistoryRecord r{row[0].as<std::string>(), std::nullopt};
      if (!row[1].is_null()) r.first_in_service = Seconds(row[1]);
      clusters.push_back(std::move(r));
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("attribution facts: reading the clusters", e);
  }
  return clusters;
}

}  // namespace fleetcap::store

#include "store/pg_attribution_facts_repository.h"

#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

// Calls `reading(index, used_milli)` for each non-NULL element of a
// usage_hourly.used_milli array ({1,NULL,...}), index 0 first.
template <typename Reading>
absl::Status ExpandReadings(const pqxx::field& f, Reading reading) {
  pqxx::array_parser parser = f.as_array();
  int index = -1;
  for (auto [juncture, text] = parser.get_next(); juncture != pqxx::array_parser::juncture::done;
       std::tie(juncture, text) = parser.get_next()) {
    switch (juncture) {
      case pqxx::array_parser::juncture::null_value:
        ++index;
        break;
      case pqxx::array_parser::juncture::string_value: {
        ++index;
        int64_t used_milli = 0;
        if (!absl::SimpleAtoi(text, &used_milli)) {
          return absl::DataLossError(
              absl::StrCat("usage_hourly.used_milli: element ", index, " is not a number: ", text));
        }
        reading(index, used_milli);
        break;
      }
      default:
        break;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AttributionFactsRecord> PgAttributionFactsRepository::Facts(const std::string& cluster, absl::Time start,
                                                                           absl::Time end) const {
  return Read(cluster, start, end, true);
}

absl::StatusOr<AttributionFactsRecord> PgAttributionFactsRepository::HoldFacts(const std::string& cluster,
                                                                               absl::Time start, absl::Time end) const {
  return Read(cluster, start, end, false);
}

absl::StatusOr<AttributionFactsRecord> PgAttributionFactsRepository::Read(const std::string& cluster, absl::Time start,
                                                                          absl::Time end, bool with_usage) const {
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
                               SecondsField(row[3]), SecondsField(row[4])});
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
                             row[3].as<std::string>(), row[4].as<std::string>(), row[5].as<int64_t>(),
                             SecondsField(row[6]), SecondsField(row[7])});
    }
    // The pods' rolled-up hours that overlap the window, sixty readings a
    // row, expanded here to the minutes in the window that have one.
    const int64_t start_s = absl::ToUnixSeconds(start), end_s = absl::ToUnixSeconds(end);
    if (!with_usage) {
      txn.commit();
      return facts;
    }
    for (const auto& row :
         txn.exec_params("SELECT pod_uid, device_id, extract(epoch FROM hour)::bigint, used_milli FROM usage_hourly"
                         " WHERE cluster = $1 AND hour > $2::timestamptz - interval '1 hour' AND hour < $3::timestamptz"
                         " ORDER BY device_id COLLATE \"C\", pod_uid COLLATE \"C\", hour",
                         cluster, from, to)) {
      const std::string pod_uid = row[0].as<std::string>(), device_id = row[1].as<std::string>();
      const int64_t hour = row[2].as<int64_t>();
      FLEETCAP_RETURN_IF_ERROR(ExpandReadings(row[3], [&](int index, int64_t used_milli) {
        const int64_t minute = hour + 60 * int64_t{index};
        if (minute >= start_s && minute < end_s) {
          facts.usage.push_back({pod_uid, device_id, absl::FromUnixSeconds(minute), used_milli});
        }
      }));
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
      if (!row[1].is_null()) r.first_in_service = SecondsField(row[1]);
      clusters.push_back(std::move(r));
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("attribution facts: reading the clusters", e);
  }
  return clusters;
}

}  // namespace fleetcap::store

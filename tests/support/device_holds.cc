#include "tests/support/device_holds.h"

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "pqxx/pqxx"

namespace fleetcap::testing {

absl::StatusOr<HoldsRead> ReadDeviceHolds(const std::string& db_uri, const std::string& cluster, absl::Time start,
                                          absl::Time end) {
  HoldsRead out;
  try {
    pqxx::connection conn(db_uri);
    pqxx::read_transaction txn(conn);
    // A device may have been in service more than once (a node that left
    // and came back): its latest row names its node, index and model.
    auto rows = txn.exec_params(
        "SELECT h.pod_uid, p.namespace, p.name, h.device_id, d.node, d.device_index, d.model, h.milli,"
        "  (extract(epoch FROM greatest(h.held_from, $2::timestamptz)) * 1000)::bigint,"
        "  (extract(epoch FROM least(coalesce(h.held_to, $3::timestamptz), $3::timestamptz)) * 1000)::bigint,"
        "  (extract(epoch FROM h.held_from) * 1000)::bigint"
        " FROM holds h"
        " LEFT JOIN pods p ON p.cluster = h.cluster AND p.pod_uid = h.pod_uid"
        " JOIN LATERAL (SELECT node, device_index, model FROM devices d"
        "   WHERE d.cluster = h.cluster AND d.device_id = h.device_id"
        "   ORDER BY d.in_service_from DESC LIMIT 1) d ON true"
        " WHERE h.cluster = $1 AND h.held_from < $3::timestamptz"
        "  AND (h.held_to IS NULL OR h.held_to > $2::timestamptz)"
        " ORDER BY 9, h.pod_uid, h.device_id",
        cluster, FormatRfc3339(start), FormatRfc3339(end));
    out.holds.reserve(rows.size());
    for (const auto& r : rows) {
      if (r[1].is_null()) {
        ++out.without_pod;
        continue;
      }
      DeviceHold h;
      h.pod_uid = r[0].as<std::string>();
      h.namespace_ = r[1].as<std::string>();
      h.pod = r[2].as<std::string>();
      h.device_id = r[3].as<std::string>();
      h.node = r[4].as<std::string>();
      h.device_index = r[5].as<int>();
      h.model = r[6].as<std::string>();
      h.milli = r[7].as<int>();
      h.from_ms = r[8].as<int64_t>();
      h.to_ms = r[9].as<int64_t>();
      h.held_from_ms = r[10].as<int64_t>();
      if (h.to_ms > h.from_ms) out.holds.push_back(std::move(h));
    }
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat("reading the holds of cluster ", cluster, ": ", e.what()));
  }
  return out;
}

absl::StatusOr<bool> HasPodUsage(const std::string& db_uri, const std::string& cluster, absl::Time start,
                                 absl::Time end) {
  try {
    pqxx::connection conn(db_uri);
    pqxx::read_transaction txn(conn);
    auto rows = txn.exec_params(
        "SELECT 1 FROM fleetcap_usage_minutes($1, $2::timestamptz, $3::timestamptz) WHERE pod_uid <> '' LIMIT 1",
        cluster, FormatRfc3339(start), FormatRfc3339(end));
    return !rows.empty();
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat("reading the usage minutes of cluster ", cluster, ": ", e.what()));
  }
}

}  // namespace fleetcap::testing

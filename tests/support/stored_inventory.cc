#include "tests/support/stored_inventory.h"

namespace fleetcap::testing {
namespace {

// Timestamps are read as Unix microseconds: exact, and free of the session's
// time zone.
absl::Time InventoryTime(const pqxx::field& f) { return absl::FromUnixMicros(f.as<int64_t>()); }

std::optional<absl::Time> InventoryOptionalTime(const pqxx::field& f) {
  if (f.is_null()) return std::nullopt;
  return InventoryTime(f);
}

pqxx::result InventoryRows(pqxx::connection& conn, const char* sql) { return pqxx::nontransaction(conn).exec(sql); }

}  // namespace

std::vector<StoredNode> StoredNodes(pqxx::connection& conn) {
  std::vector<StoredNode> out;
  for (const auto& r : InventoryRows(conn,
                                     "SELECT cluster, node, pool, accelerator_topology,"
                                     " (extract(epoch FROM in_service_from) * 1000000)::bigint,"
                                     " (extract(epoch FROM in_service_to) * 1000000)::bigint"
                                     " FROM nodes ORDER BY cluster, node, in_service_from")) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
                   InventoryTime(r[4]), InventoryOptionalTime(r[5])});
  }
  return out;
}

std::vector<StoredDevice> StoredDevices(pqxx::connection& conn) {
  std::vector<StoredDevice> out;
  for (const auto& r : InventoryRows(conn,
                                     "SELECT cluster, device_id, node, device_index, model,"
                                     " (extract(epoch FROM in_service_from) * 1000000)::bigint,"
                                     " (extract(epoch FROM in_service_to) * 1000000)::bigint"
                                     " FROM devices ORDER BY cluster, device_id, in_service_from")) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<int>(),
                   r[4].as<std::string>(), InventoryTime(r[5]), InventoryOptionalTime(r[6])});
  }
  return out;
}

std::vector<StoredPod> StoredPods(pqxx::connection& conn) {
  std::vector<StoredPod> out;
  for (const auto& r : InventoryRows(conn,
                                     "SELECT cluster, pod_uid, namespace, name, team, workload_kind, workload_name,"
                                     " phase, (extract(epoch FROM created_at) * 1000000)::bigint,"
                                     " (extract(epoch FROM scheduled_at) * 1000000)::bigint,"
                                     " (extract(epoch FROM deleted_at) * 1000000)::bigint,"
                                     " requested_milli, unplaced, node FROM pods ORDER BY cluster, pod_uid")) {
    StoredPod pod;
    pod.cluster = r[0].as<std::string>();
    pod.pod_uid = r[1].as<std::string>();
    pod.namespace_ = r[2].as<std::string>();
    pod.name = r[3].as<std::string>();
    pod.team = r[4].as<std::string>();
    pod.workload_kind = r[5].as<std::string>();
    pod.workload_name = r[6].as<std::string>();
    pod.phase = r[7].as<std::string>();
    pod.created_at = InventoryTime(r[8]);
    pod.scheduled_at = InventoryOptionalTime(r[9]);
    pod.deleted_at = InventoryOptionalTime(r[10]);
    pod.requested_milli = r[11].as<int64_t>();
    pod.unplaced = r[12].as<bool>();
    pod.node = r[13].as<std::string>();
    out.push_back(std::move(pod));
  }
  return out;
}

std::vector<StoredHold> StoredHolds(pqxx::connection& conn) {
  std::vector<StoredHold> out;
  for (const auto& r : InventoryRows(conn,
                                     "SELECT cluster, pod_uid, device_id, milli,"
                                     " (extract(epoch FROM held_from) * 1000000)::bigint,"
                                     " (extract(epoch FROM held_to) * 1000000)::bigint"
                                     " FROM holds ORDER BY cluster, pod_uid, device_id, held_from")) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<int>(),
                   InventoryTime(r[4]), InventoryOptionalTime(r[5])});
  }
  return out;
}

std::vector<StoredPendingDemand> StoredPendingDemands(pqxx::connection& conn) {
  std::vector<StoredPendingDemand> out;
  for (const auto& r : InventoryRows(conn,
                                     "SELECT cluster, pod_uid, resource_name, model, requested_milli,"
                                     " (extract(epoch FROM pending_from) * 1000000)::bigint,"
                                     " (extract(epoch FROM pending_to) * 1000000)::bigint"
                                     " FROM pending_demand ORDER BY cluster, pod_uid, pending_from")) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
                   r[4].as<int64_t>(), InventoryTime(r[5]), InventoryOptionalTime(r[6])});
  }
  return out;
}

std::vector<StoredNamespaceLabel> StoredNamespaceLabels(pqxx::connection& conn) {
  std::vector<StoredNamespaceLabel> out;
  for (const auto& r : InventoryRows(conn,
                                     "SELECT cluster, namespace, source, key, value FROM namespace_labels"
                                     " ORDER BY cluster, namespace, source, key")) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
                   r[4].as<std::string>()});
  }
  return out;
}

std::vector<StoredWorkload> StoredWorkloads(pqxx::connection& conn) {
  std::vector<StoredWorkload> out;
  for (const auto& r : InventoryRows(conn,
                                     "SELECT cluster, namespace, kind, name, team FROM workloads"
                                     " ORDER BY cluster, namespace, kind, name")) {
    out.push_back({r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(), r[3].as<std::string>(),
                   r[4].as<std::string>()});
  }
  return out;
}

std::vector<std::string> StoredClusters(pqxx::connection& conn) {
  std::vector<std::string> out;
  for (const auto& r : InventoryRows(conn, "SELECT cluster FROM clusters ORDER BY cluster")) {
    out.push_back(r[0].as<std::string>());
  }
  return out;
}

}  // namespace fleetcap::testing

#include <initializer_list>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::store {
namespace {

absl::Status Bad(absl::string_view record, size_t i, absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(record, "[", i, "].", field, ": ", why));
}

// PostgreSQL's text cannot hold a NUL byte, which JSON ("\u0000") can.
absl::Status CheckText(absl::string_view record, size_t i,
                       std::initializer_list<std::pair<const char*, const std::string*>> fields) {
  for (const auto& [name, value] : fields) {
    if (value->find('\0') != std::string::npos) return Bad(record, i, name, "holds a NUL byte");
  }
  return absl::OkStatus();
}

absl::Status CheckInterval(absl::string_view record, size_t i, absl::Time from, const std::optional<absl::Time>& to) {
  if (to.has_value() && *to < from) return Bad(record, i, "to", "ends before it starts");
  return absl::OkStatus();
}

absl::Status ValidateTypeRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.types.size(); ++i) {
    const auto& t = c.types[i];
    if (t.model.empty()) return Bad("types", i, "model", "empty");
    if (t.vendor != "nvidia" && t.vendor != "google" && t.vendor != "amd" && t.vendor != "unknown") {
      return Bad("types", i, "vendor", absl::StrCat("\"", t.vendor, "\" is not nvidia, google, amd or unknown"));
    }
    FLEETCAP_RETURN_IF_ERROR(CheckText("types", i, {{"model", &t.model}, {"resource_name", &t.resource_name}}));
  }
  return absl::OkStatus();
}

absl::Status ValidateNamespaceRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.namespaces.size(); ++i) {
    const auto& n = c.namespaces[i];
    if (n.name.empty()) return Bad("namespaces", i, "name", "empty");
    for (const auto* values : {&n.labels, &n.annotations}) {
      for (const auto& [key, value] : *values) {
        if (key.empty()) return Bad("namespaces", i, "labels", "a key is empty");
      }
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateNodeRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    const auto& n = c.nodes[i].node;
    if (n.name.empty()) return Bad("nodes", i, "name", "empty");
    if (n.cpu_milli < 0 || n.memory_mib < 0) return Bad("nodes", i, "cpu_milli", "negative");
    FLEETCAP_RETURN_IF_ERROR(CheckInterval("nodes", i, n.in_service_from, n.in_service_to));
    if (auto s = CheckText("nodes", i,
                           {{"name", &n.name},
                            {"pool", &n.pool},
                            {"topology", &c.nodes[i].topology},
                            {"model_label_key", &c.nodes[i].model_label_key},
                            {"model_label_value", &c.nodes[i].model_label_value},
                            {"pool_label_key", &c.nodes[i].pool_label_key}});
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateDeviceRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.devices.size(); ++i) {
    const auto& d = c.devices[i];
    if (d.device_id.empty()) return Bad("devices", i, "device_id", "empty");
    if (d.model.empty()) return Bad("devices", i, "model", "empty");
    if (d.index < 0) return Bad("devices", i, "index", "negative");
    FLEETCAP_RETURN_IF_ERROR(CheckInterval("devices", i, d.in_service_from, d.in_service_to));
    if (auto s = CheckText("devices", i, {{"device_id", &d.device_id}, {"node", &d.node}, {"model", &d.model}});
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status ValidatePodRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.pods.size(); ++i) {
    const auto& p = c.pods[i].pod;
    if (p.uid.empty()) return Bad("pods", i, "uid", "empty");
    if (p.workload_kind.empty() || p.workload_name.empty()) return Bad("pods", i, "workload", "empty");
    if (p.requested_milli < 0) return Bad("pods", i, "requested_milli", "negative");
    if (auto s = CheckText("pods", i,
                           {{"uid", &p.uid},
                            {"namespace", &p.namespace_name},
                            {"name", &p.name},
                            {"team", &p.team},
                            {"workload_kind", &p.workload_kind},
                            {"workload_name", &p.workload_name},
                            {"phase", &p.phase},
                            {"node", &c.pods[i].node}});
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateHoldRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.holds.size(); ++i) {
    const auto& h = c.holds[i];
    if (h.pod_uid.empty()) return Bad("holds", i, "pod_uid", "empty");
    if (h.device_id.empty()) return Bad("holds", i, "device_id", "empty");
    if (h.milli < 1 || h.milli > 1000) return Bad("holds", i, "milli", absl::StrCat(h.milli, " is outside 1..1000"));
    FLEETCAP_RETURN_IF_ERROR(CheckInterval("holds", i, h.from, h.to));
    FLEETCAP_RETURN_IF_ERROR(CheckText("holds", i, {{"pod_uid", &h.pod_uid}, {"device_id", &h.device_id}}));
  }
  return absl::OkStatus();
}

absl::Status ValidateDemandRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.demands.size(); ++i) {
    const auto& d = c.demands[i];
    if (d.pod_uid.empty()) return Bad("demands", i, "pod_uid", "empty");
    if (d.requested_milli < 1) return Bad("demands", i, "requested_milli", "not positive");
    FLEETCAP_RETURN_IF_ERROR(CheckInterval("demands", i, d.from, d.to));
    if (auto s = CheckText("demands", i,
                           {{"pod_uid", &d.pod_uid}, {"resource_name", &d.resource_name}, {"model", &d.model}});
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateCloseRows(const InventoryChanges& c) {
  for (const auto* closes : {&c.close_nodes, &c.close_devices, &c.close_holds, &c.close_demands}) {
    for (size_t i = 0; i < closes->size(); ++i) {
      if ((*closes)[i].key.empty()) return Bad("closes", i, "key", "empty");
      if (auto s = CheckText("closes", i, {{"key", &(*closes)[i].key}, {"device_id", &(*closes)[i].device_id}});
          !s.ok()) {
        return s;
      }
    }
  }
  for (size_t i = 0; i < c.close_holds.size(); ++i) {
    if (c.close_holds[i].device_id.empty()) return Bad("close_holds", i, "device_id", "empty");
  }
  return absl::OkStatus();
}

absl::Status ValidateQuarantineRows(const InventoryChanges& c) {
  for (size_t i = 0; i < c.quarantine.size(); ++i) {
    if (c.quarantine[i].source.empty()) return Bad("quarantine", i, "source", "empty");
    if (c.quarantine[i].reason.empty()) return Bad("quarantine", i, "reason", "empty");
  }
  return absl::OkStatus();
}

}  // namespace

// Each kind of row is checked in turn; the first fault found is the answer.
absl::Status ValidateChanges(const InventoryChanges& c) {
  if (c.cluster.empty()) return absl::InvalidArgumentError("cluster: empty");
  FLEETCAP_RETURN_IF_ERROR(ValidateTypeRows(c));
  FLEETCAP_RETURN_IF_ERROR(ValidateNamespaceRows(c));
  FLEETCAP_RETURN_IF_ERROR(ValidateNodeRows(c));
  FLEETCAP_RETURN_IF_ERROR(ValidateDeviceRows(c));
  FLEETCAP_RETURN_IF_ERROR(ValidatePodRows(c));
  FLEETCAP_RETURN_IF_ERROR(ValidateHoldRows(c));
  FLEETCAP_RETURN_IF_ERROR(ValidateDemandRows(c));
  FLEETCAP_RETURN_IF_ERROR(ValidateCloseRows(c));
  return ValidateQuarantineRows(c);
}

}  // namespace fleetcap::store

#include "absl/strings/str_cat.h"
#include "store/live_inventory_repository.h"

namespace fleetcap::store {
namespace {

absl::Status Bad(absl::string_view record, size_t i, absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(record, "[", i, "].", field, ": ", why));
}

absl::Status CheckInterval(absl::string_view record, size_t i, absl::Time from, const std::optional<absl::Time>& to) {
  if (to.has_value() && *to < from) return Bad(record, i, "to", "ends before it starts");
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateChanges(const InventoryChanges& c) {
  if (c.cluster.empty()) return absl::InvalidArgumentError("cluster: empty");
  for (size_t i = 0; i < c.types.size(); ++i) {
    const auto& t = c.types[i];
    if (t.model.empty()) return Bad("types", i, "model", "empty");
    if (t.vendor != "nvidia" && t.vendor != "google" && t.vendor != "amd" && t.vendor != "unknown") {
      return Bad("types", i, "vendor", absl::StrCat("\"", t.vendor, "\" is not nvidia, google, amd or unknown"));
    }
  }
  for (size_t i = 0; i < c.namespaces.size(); ++i) {
    const auto& n = c.namespaces[i];
    if (n.name.empty()) return Bad("namespaces", i, "name", "empty");
    for (const auto* values : {&n.labels, &n.annotations}) {
      for (const auto& [key, value] : *values) {
        if (key.empty()) return Bad("namespaces", i, "labels", "a key is empty");
      }
    }
  }
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    const auto& n = c.nodes[i].node;
    if (n.name.empty()) return Bad("nodes", i, "name", "empty");
    if (n.cpu_milli < 0 || n.memory_mib < 0) return Bad("nodes", i, "cpu_milli", "negative");
    if (auto s = CheckInterval("nodes", i, n.in_service_from, n.in_service_to); !s.ok()) return s;
  }
  for (size_t i = 0; i < c.devices.size(); ++i) {
    const auto& d = c.devices[i];
    if (d.device_id.empty()) return Bad("devices", i, "device_id", "empty");
    if (d.model.empty()) return Bad("devices", i, "model", "empty");
    if (d.index < 0) return Bad("devices", i, "index", "negative");
    if (auto s = CheckInterval("devices", i, d.in_service_from, d.in_service_to); !s.ok()) return s;
  }
  for (size_t i = 0; i < c.pods.size(); ++i) {
    const auto& p = c.pods[i].pod;
    if (p.uid.empty()) return Bad("pods", i, "uid", "empty");
    if (p.workload_kind.empty() || p.workload_name.empty()) return Bad("pods", i, "workload", "empty");
    if (p.requested_milli < 0) return Bad("pods", i, "requested_milli", "negative");
  }
  for (size_t i = 0; i < c.holds.size(); ++i) {
    const auto& h = c.holds[i];
    if (h.pod_uid.empty()) return Bad("holds", i, "pod_uid", "empty");
    if (h.device_id.empty()) return Bad("holds", i, "device_id", "empty");
    if (h.milli < 1 || h.milli > 1000) return Bad("holds", i, "milli", absl::StrCat(h.milli, " is outside 1..1000"));
    if (auto s = CheckInterval("holds", i, h.from, h.to); !s.ok()) return s;
  }
  for (size_t i = 0; i < c.demands.size(); ++i) {
    const auto& d = c.demands[i];
    if (d.pod_uid.empty()) return Bad("demands", i, "pod_uid", "empty");
    if (d.requested_milli < 1) return Bad("demands", i, "requested_milli", "not positive");
    if (auto s = CheckInterval("demands", i, d.from, d.to); !s.ok()) return s;
  }
  for (const auto* closes : {&c.close_nodes, &c.close_devices, &c.close_holds, &c.close_demands}) {
    for (size_t i = 0; i < closes->size(); ++i) {
      if ((*closes)[i].key.empty()) return Bad("closes", i, "key", "empty");
    }
  }
  for (size_t i = 0; i < c.close_holds.size(); ++i) {
    if (c.close_holds[i].device_id.empty()) return Bad("close_holds", i, "device_id", "empty");
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::store

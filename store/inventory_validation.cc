#include "store/inventory_validation.h"

#include <optional>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"

namespace fleetcap::store {
namespace {

absl::Status Invalid(absl::string_view where, size_t index, absl::string_view field, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("inventory ", where, "[", index, "].", field, ": ", what));
}

bool Ordered(absl::Time from, const std::optional<absl::Time>& to) { return !to.has_value() || *to >= from; }

}  // namespace

absl::Status ValidateInventory(const ClusterInventory& inv) {
  if (inv.cluster.empty()) return absl::InvalidArgumentError("inventory cluster: empty");
  std::set<std::string> models;
  for (size_t i = 0; i < inv.types.size(); ++i) {
    const auto& t = inv.types[i];
    if (t.model.empty()) return Invalid("types", i, "model", "empty");
    static const std::set<std::string> kVendors = {"nvidia", "google", "amd", "unknown"};
    if (kVendors.count(t.vendor) == 0) {
      return Invalid("types", i, "vendor",
                     absl::StrCat("\"", t.vendor, "\" is not one of nvidia, google, amd, unknown"));
    }
    if (t.resource_name.empty()) return Invalid("types", i, "resource_name", "empty");
    models.insert(t.model);
  }
  for (size_t i = 0; i < inv.nodes.size(); ++i) {
    const auto& n = inv.nodes[i];
    if (n.name.empty()) return Invalid("nodes", i, "name", "empty");
    if (!Ordered(n.in_service_from, n.in_service_to)) {
      return Invalid("nodes", i, "in_service_to", "before in_service_from");
    }
  }
  std::set<std::string> devices;
  for (size_t i = 0; i < inv.devices.size(); ++i) {
    const auto& d = inv.devices[i];
    if (d.device_id.empty()) return Invalid("devices", i, "device_id", "empty");
    if (models.count(d.model) == 0) {
      return Invalid("devices", i, "model",
                     absl::StrCat("\"", d.model, "\" is not among the inventory's accelerator types"));
    }
    if (d.index < 0) return Invalid("devices", i, "index", "negative");
    if (!Ordered(d.in_service_from, d.in_service_to)) {
      return Invalid("devices", i, "in_service_to", "before in_service_from");
    }
    devices.insert(d.device_id);
  }
  std::set<std::string> pods;
  for (size_t i = 0; i < inv.pods.size(); ++i) {
    const auto& p = inv.pods[i];
    if (p.uid.empty()) return Invalid("pods", i, "uid", "empty");
    if (p.team.empty()) return Invalid("pods", i, "team", "empty (use \"unassigned\")");
    if (p.requested_milli < 0) return Invalid("pods", i, "requested_milli", "negative");
    if (!pods.insert(p.uid).second) return Invalid("pods", i, "uid", absl::StrCat("\"", p.uid, "\" appears twice"));
  }
  for (size_t i = 0; i < inv.holds.size(); ++i) {
    const auto& h = inv.holds[i];
    if (h.milli < 1 || h.milli > 1000) {
      return Invalid("holds", i, "milli", absl::StrCat(h.milli, " is outside 1..1000"));
    }
    if (devices.count(h.device_id) == 0) {
      return Invalid("holds", i, "device_id",
                     absl::StrCat("\"", h.device_id, "\" is not among the inventory's devices"));
    }
    if (pods.count(h.pod_uid) == 0) {
      return Invalid("holds", i, "pod_uid", absl::StrCat("\"", h.pod_uid, "\" is not among the inventory's pods"));
    }
    if (!Ordered(h.from, h.to)) return Invalid("holds", i, "to", "before from");
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::store

#include "store/memory_inventory_repository.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "store/inventory_validation.h"

namespace fleetcap::store {
namespace {

bool Covers(absl::Time from, const std::optional<absl::Time>& to, absl::Time at) {
  return from <= at && (!to.has_value() || *to > at);
}

void Accumulate(const ClusterInventory& inv, absl::Time at, std::map<std::string, ModelCount>& out) {
  std::map<std::string, const Device*> in_service;
  for (const auto& d : inv.devices) {
    if (!Covers(d.in_service_from, d.in_service_to, at)) continue;
    in_service[d.device_id] = &d;
    auto& count = out[d.model];
    count.model = d.model;
    count.devices += 1;
  }
  for (const auto& h : inv.holds) {
    if (!Covers(h.from, h.to, at)) continue;
    auto it = in_service.find(h.device_id);
    if (it != in_service.end()) out[it->second->model].held_milli += h.milli;
  }
}

}  // namespace

absl::Status MemoryInventoryRepository::ReplaceClusterInventory(const ClusterInventory& inventory) {
  FLEETCAP_RETURN_IF_ERROR(ValidateInventory(inventory));
  clusters_[inventory.cluster] = inventory;
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ModelCount>> MemoryInventoryRepository::SummarizeAt(const std::string& cluster,
                                                                               absl::Time at) {
  std::map<std::string, ModelCount> by_model;
  if (cluster.empty()) {
    for (const auto& [name, inv] : clusters_) Accumulate(inv, at, by_model);
  } else {
    auto it = clusters_.find(cluster);
    if (it == clusters_.end()) {
      return absl::NotFoundError(absl::StrCat("cluster \"", cluster, "\" is not known"));
    }
    Accumulate(it->second, at, by_model);
  }
  std::vector<ModelCount> out;
  for (auto& [model, count] : by_model) out.push_back(count);
  return out;
}

}  // namespace fleetcap::store

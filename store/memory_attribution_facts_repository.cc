#include "store/memory_attribution_facts_repository.h"

#include <algorithm>
#include <tuple>

#include "common/status_macros.h"

namespace fleetcap::store {

absl::StatusOr<AttributionFactsRecord> MemoryAttributionFactsRepository::Facts(const std::string& cluster,
                                                                               absl::Time start, absl::Time end) const {
  FLEETCAP_RETURN_IF_ERROR(CheckFactsWindow(cluster, start, end));
  AttributionFactsRecord facts;
  if (const auto* state = inventory_->State(cluster); state != nullptr) {
    for (const auto& [key, d] : state->devices) {
      const absl::Time from = std::max(d.in_service_from, start);
      const absl::Time to = std::min(d.in_service_to.value_or(absl::InfiniteFuture()), end);
      if (from < to) facts.devices.push_back({d.device_id, d.node, d.model, from, to});
    }
    for (const auto& [key, h] : state->holds) {
      const absl::Time from = std::max(h.from, start);
      const absl::Time to = std::min(h.to.value_or(absl::InfiniteFuture()), end);
      if (from >= to) continue;
      HoldFactRecord r{h.pod_uid, "", "", "", h.device_id, h.milli, from, to};
      if (auto pod = state->pods.find(h.pod_uid); pod != state->pods.end()) {
        r.namespace_name = pod->second.pod.namespace_name;
        r.team_label = pod->second.pod.team;
        r.workload = pod->second.pod.workload_kind + "/" + pod->second.pod.workload_name;
      }
      facts.holds.push_back(std::move(r));
    }
  }
  std::sort(facts.devices.begin(), facts.devices.end(),
            [](const auto& a, const auto& b) { return std::tie(a.device_id, a.from) < std::tie(b.device_id, b.from); });
  std::sort(facts.holds.begin(), facts.holds.end(), [](const auto& a, const auto& b) {
    return std::tie(a.device_id, a.from, a.pod_uid) < std::tie(b.device_id, b.from, b.pod_uid);
  });
  facts.usage = rollups_->Usage(cluster, start, end);
  return facts;
}

absl::StatusOr<AttributionFactsRecord> MemoryAttributionFactsRepository::HoldFacts(const std::string& cluster,
                                                                                   absl::Time start,
                                                                                   absl::Time end) const {
  FLEETCAP_ASSIGN_OR_RETURN(AttributionFactsRecord facts, Facts(cluster, start, end));
  facts.usage.clear();
  return facts;
}

absl::StatusOr<std::vector<ClusterHistoryRecord>> MemoryAttributionFactsRepository::Clusters() const {
  std::vector<ClusterHistoryRecord> clusters;
  for (const std::string& name : inventory_->ClusterNames()) {
    ClusterHistoryRecord r{name, std::nullopt};
    for (const auto& [key, d] : inventory_->State(name)->devices) {
      if (d.in_service_to.has_value() && *d.in_service_to <= d.in_service_from) continue;
      if (!r.first_in_service.has_value() || d.in_service_from < *r.first_in_service)
        r.first_in_service = d.in_service_from;
    }
    clusters.push_back(std::move(r));
  }
  return clusters;
}

}  // namespace fleetcap::store

#include "optimizer/waste_pass/waste_loader.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/status_macros.h"

namespace fleetcap::optimizer {

absl::StatusOr<WasteHolds> LoadWasteHolds(const chargeback::FactsSources& sources, const std::string& cluster,
                                          absl::Time from, absl::Time end) {
  FLEETCAP_RETURN_IF_ERROR(sources.directory->Refresh());
  FLEETCAP_ASSIGN_OR_RETURN(std::shared_ptr<const attribution::TeamSchedule> teams,
                            sources.directory->Schedule(sources.up_to));
  FLEETCAP_ASSIGN_OR_RETURN(store::AttributionFactsRecord facts, sources.facts->HoldFacts(cluster, from, end));
  WasteHolds out;
  const policy::PolicyDocument& newest = sources.policies()->At(absl::InfiniteFuture(), sources.up_to).teams->policy();
  out.prices = newest.prices;
  out.options = newest.insights;
  std::map<std::string, std::string> models;
  for (const store::DeviceInServiceRecord& d : facts.devices) models[d.device_id] = d.model;
  // Each hold once per team its pod had while it held the device.
  for (const store::HoldFactRecord& h : facts.holds) {
    const policy::PodEvidence pod{cluster, h.namespace_name, h.team_label};
    for (const attribution::TeamSpan& span : teams->TeamsDuring(pod, h.from, h.to)) {
      out.holds.push_back({cluster, h.pod_uid, h.namespace_name, span.team, h.workload, h.device_id,
                           models[h.device_id], h.milli, span.from, span.to});
    }
  }
  // Stable: a pod's holds keep their order, which is the order the engine sums them in.
  std::stable_sort(out.holds.begin(), out.holds.end(), [](const insights::WasteHold& a, const insights::WasteHold& b) {
    return std::tie(a.namespace_name, a.workload, a.pod_uid) < std::tie(b.namespace_name, b.workload, b.pod_uid);
  });
  return out;
}

std::vector<HoldBatch> WorkloadBatches(const std::vector<insights::WasteHold>& holds, size_t batch_holds) {
  std::vector<HoldBatch> out;
  size_t first = 0;
  for (size_t i = 1; i <= holds.size(); ++i) {
    const bool workload_ends = i == holds.size() || holds[i].namespace_name != holds[i - 1].namespace_name ||
                               holds[i].workload != holds[i - 1].workload;
    if (workload_ends && (i - first >= batch_holds || i == holds.size())) {
      out.push_back({first, i});
      first = i;
    }
  }
  return out;
}

absl::StatusOr<std::vector<insights::ActivityReading>> LoadBatchReadings(const store::UsageReadRepository& usage,
                                                                         const std::string& cluster,
                                                                         const std::vector<insights::WasteHold>& holds,
                                                                         HoldBatch batch, absl::Time from,
                                                                         absl::Time end) {
  std::set<std::string> devices, pods;
  for (size_t i = batch.first; i < batch.last; ++i) {
    devices.insert(holds[i].device_id);
    pods.insert(holds[i].pod_uid);
  }
  store::PodSeriesFilter filter{cluster, from, end, {devices.begin(), devices.end()}, {pods.begin(), pods.end()}};
  FLEETCAP_ASSIGN_OR_RETURN(std::vector<store::UsageMinuteRow> rows, usage.PodMinutes(filter));
  std::vector<insights::ActivityReading> readings;
  readings.reserve(rows.size());
  for (const store::UsageMinuteRow& r : rows) {
    readings.push_back(
        {cluster, r.pod_uid, r.device_id, absl::FromUnixMillis(r.minute_ms), r.util_mean, r.sm_active_mean});
  }
  return readings;
}

}  // namespace fleetcap::optimizer

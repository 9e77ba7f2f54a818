#include "optimizer/waste_pass/waste_loader.h"

#include <map>

#include "common/status_macros.h"

namespace fleetcap::optimizer {
namespace {

// Each hold once per team its pod had while it held the device.
void AppendHolds(const std::string& cluster, const attribution::AttributionInput& facts,
                 const attribution::TeamSchedule& teams, insights::WasteInput* input) {
  std::map<std::string, std::string> models;
  for (const attribution::DeviceInService& d : facts.devices) models[d.device_id] = d.model;
  for (const attribution::HoldFact& h : facts.holds) {
    const policy::PodEvidence pod{cluster, h.namespace_name, h.team_label};
    for (const attribution::TeamSpan& span : teams.TeamsDuring(pod, h.from, h.to)) {
      input->holds.push_back({cluster, h.pod_uid, h.namespace_name, span.team, h.workload, h.device_id,
                              models[h.device_id], h.milli, span.from, span.to});
    }
  }
}

}  // namespace

absl::StatusOr<insights::WasteInput> LoadWasteInput(const chargeback::FactsSources& sources,
                                                    const store::UsageReadRepository& usage, const std::string& cluster,
                                                    absl::Time history_from, absl::Time start, absl::Time end) {
  FLEETCAP_ASSIGN_OR_RETURN(chargeback::LoadedWindow window,
                            chargeback::LoadClusterWindow(sources, cluster, history_from, end));
  insights::WasteInput input;
  input.start = start;
  input.end = end;
  input.history_from = history_from;
  const policy::PolicyDocument& newest = sources.policies()->At(absl::InfiniteFuture(), sources.up_to).teams->policy();
  input.prices = newest.prices;
  input.options = newest.insights;
  // Every piece of the window carries the same facts; the first is enough.
  if (!window.pieces.empty()) AppendHolds(cluster, window.pieces.front().input, *window.teams, &input);

  store::UsageFilter filter;
  filter.cluster = cluster;
  filter.start = history_from;
  filter.end = end;
  filter.pods = true;
  FLEETCAP_ASSIGN_OR_RETURN(std::vector<store::UsageMinuteRow> rows, usage.Minutes(filter));
  input.readings.reserve(rows.size());
  for (const store::UsageMinuteRow& r : rows) {
    input.readings.push_back(
        {cluster, r.pod_uid, r.device_id, absl::FromUnixMillis(r.minute_ms), r.util_mean, r.sm_active_mean});
  }
  return input;
}

}  // namespace fleetcap::optimizer

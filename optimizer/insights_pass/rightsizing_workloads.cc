#include "optimizer/insights_pass/rightsizing_workloads.h"

#include <map>
#include <tuple>

namespace fleetcap::optimizer {
namespace {

using WorkloadKey = std::tuple<std::string, std::string, std::string>;  // namespace, workload, model

insights::PodMinute PodMinuteOf(const store::UsageMinuteRow& row) {
  return {row.pod_uid,           row.device_id,      absl::FromUnixMillis(row.minute_ms),
          row.util_mean,         row.sm_active_mean, row.memory_used_bytes,
          row.memory_total_bytes};
}

}  // namespace

std::vector<insights::WorkloadFacts> RightsizingWorkloads(const std::string& cluster,
                                                          const store::AttributionFactsRecord& facts,
                                                          const std::vector<store::UsageMinuteRow>& minutes,
                                                          const TeamOfPod& team_of) {
  std::map<std::string, std::string> model_of;  // by device
  for (const store::DeviceInServiceRecord& d : facts.devices) model_of[d.device_id] = d.model;
  std::map<WorkloadKey, size_t> index;
  std::map<std::pair<std::string, std::string>, size_t> by_pod_and_model;
  std::vector<insights::WorkloadFacts> out;
  for (const store::HoldFactRecord& h : facts.holds) {
    const auto model = model_of.find(h.device_id);
    if (h.namespace_name.empty() || model == model_of.end()) continue;
    const std::string workload = h.workload.empty() ? "Pod/" + h.pod_uid : h.workload;
    const WorkloadKey key{h.namespace_name, workload, model->second};
    auto [it, added] = index.emplace(key, out.size());
    if (added) {
      out.push_back({cluster,
                     team_of({cluster, h.namespace_name, h.team_label}),
                     h.namespace_name,
                     workload,
                     model->second,
                     {},
                     {}});
    }
    out[it->second].holds.push_back({h.pod_uid, h.device_id, h.milli, h.from, h.to});
    by_pod_and_model[{h.pod_uid, model->second}] = it->second;
  }
  for (const store::UsageMinuteRow& row : minutes) {
    const auto model = model_of.find(row.device_id);
    if (row.pod_uid.empty() || model == model_of.end()) continue;
    const auto w = by_pod_and_model.find({row.pod_uid, model->second});
    if (w != by_pod_and_model.end()) out[w->second].minutes.push_back(PodMinuteOf(row));
  }
  return out;
}

}  // namespace fleetcap::optimizer

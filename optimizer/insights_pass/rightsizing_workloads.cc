#include "optimizer/insights_pass/rightsizing_workloads.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace fleetcap::optimizer {
namespace {

using WorkloadKey = std::tuple<std::string, std::string, std::string>;  // namespace, workload, model

// The workload of hold `h`, none when it is left out (a pod the inventory
// does not know, a device of no model).
std::optional<WorkloadKey> KeyOf(const store::HoldFactRecord& h, const std::map<std::string, std::string>& model_of) {
  const auto model = model_of.find(h.device_id);
  if (h.namespace_name.empty() || model == model_of.end()) return std::nullopt;
  return WorkloadKey{h.namespace_name, h.workload.empty() ? "Pod/" + h.pod_uid : h.workload, model->second};
}

std::map<std::string, std::string> ModelsOf(const store::AttributionFactsRecord& facts) {
  std::map<std::string, std::string> model_of;  // by device
  for (const store::DeviceInServiceRecord& d : facts.devices) model_of[d.device_id] = d.model;
  return model_of;
}

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
  const std::map<std::string, std::string> model_of = ModelsOf(facts);
  std::map<WorkloadKey, size_t> index;
  std::map<std::pair<std::string, std::string>, size_t> by_pod_and_model;
  std::vector<insights::WorkloadFacts> out;
  for (const store::HoldFactRecord& h : facts.holds) {
    const std::optional<WorkloadKey> key = KeyOf(h, model_of);
    if (!key) continue;
    const auto& [ns, workload, model] = *key;
    auto [it, added] = index.emplace(*key, out.size());
    if (added) out.push_back({cluster, team_of({cluster, ns, h.team_label}), ns, workload, model, {}, {}});
    out[it->second].holds.push_back({h.pod_uid, h.device_id, h.milli, h.from, h.to});
    by_pod_and_model[{h.pod_uid, model}] = it->second;
  }
  for (const store::UsageMinuteRow& row : minutes) {
    const auto model = model_of.find(row.device_id);
    if (row.pod_uid.empty() || model == model_of.end()) continue;
    const auto w = by_pod_and_model.find({row.pod_uid, model->second});
    if (w != by_pod_and_model.end()) out[w->second].minutes.push_back(PodMinuteOf(row));
  }
  return out;
}

std::vector<store::AttributionFactsRecord> WorkloadParts(const store::AttributionFactsRecord& facts,
                                                         size_t batch_holds) {
  const std::map<std::string, std::string> model_of = ModelsOf(facts);
  // Each workload's holds, in the order the workloads are found.
  std::map<WorkloadKey, size_t> index;
  std::vector<std::vector<const store::HoldFactRecord*>> workloads;
  for (const store::HoldFactRecord& h : facts.holds) {
    const std::optional<WorkloadKey> key = KeyOf(h, model_of);
    if (!key) continue;
    auto [it, added] = index.emplace(*key, workloads.size());
    if (added) workloads.emplace_back();
    workloads[it->second].push_back(&h);
  }
  std::vector<store::AttributionFactsRecord> parts;
  std::set<std::string> devices;
  for (size_t i = 0; i < workloads.size(); ++i) {
    if (parts.empty() || parts.back().holds.size() >= batch_holds) {
      parts.emplace_back();
      devices.clear();
    }
    store::AttributionFactsRecord& part = parts.back();
    for (const store::HoldFactRecord* h : workloads[i]) {
      part.holds.push_back(*h);
      if (devices.insert(h->device_id).second)
        part.devices.push_back({h->device_id, "", model_of.at(h->device_id), {}, {}});
    }
  }
  return parts;
}

}  // namespace fleetcap::optimizer

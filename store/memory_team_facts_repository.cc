#include "store/memory_team_facts_repository.h"

#include <set>
#include <tuple>

namespace fleetcap::store {

void MemoryTeamFactsRepository::AddPod(Pod pod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto key = std::make_pair(pod.cluster, pod.pod_uid);
  pods_[std::move(key)] = std::move(pod);
}

void MemoryTeamFactsRepository::AddHold(Hold hold) {
  std::lock_guard<std::mutex> lock(mu_);
  holds_.push_back(std::move(hold));
}

void MemoryTeamFactsRepository::AddNamespace(const std::string& cluster, NamespaceLabels ns) {
  std::lock_guard<std::mutex> lock(mu_);
  namespaces_[{cluster, ns.name}] = std::move(ns);
}

int32_t MemoryTeamFactsRepository::Apply(std::string document, absl::Time applied_at) {
  std::lock_guard<std::mutex> lock(mu_);
  PolicyVersionRecord r;
  r.version = static_cast<int32_t>(policies_.size()) + 1;
  r.document = std::move(document);
  r.applied_at = applied_at;
  policies_.push_back(std::move(r));
  return policies_.back().version;
}

absl::StatusOr<std::vector<PodTeamEvidence>> MemoryTeamFactsRepository::HoldersAt(const std::string& cluster,
                                                                                  absl::Time at) {
  std::lock_guard<std::mutex> lock(mu_);
  // By (cluster, pod_uid): a pod's holds of several devices add up.
  std::map<std::pair<std::string, std::string>, PodTeamEvidence> held;
  for (const Hold& h : holds_) {
    if (!cluster.empty() && h.cluster != cluster) continue;
    if (h.held_from > at || (h.held_to && *h.held_to <= at)) continue;
    if (h.device_in_service_from > at || (h.device_in_service_to && *h.device_in_service_to <= at)) continue;
    auto pod = pods_.find({h.cluster, h.pod_uid});
    if (pod == pods_.end()) continue;
    PodTeamEvidence& e = held[pod->first];
    e.cluster = h.cluster;
    e.namespace_name = pod->second.namespace_name;
    e.team_label = pod->second.team_label;
    e.held_milli += h.milli;
  }
  std::vector<PodTeamEvidence> out;
  for (auto& [key, e] : held) out.push_back(std::move(e));
  return out;
}

absl::StatusOr<std::vector<PodTeamEvidence>> MemoryTeamFactsRepository::PodsOfNamespace(
    const std::string& cluster, const std::string& namespace_name, absl::Time start, absl::Time end) {
  std::lock_guard<std::mutex> lock(mu_);
  std::set<std::string> teams;  // each team label once
  for (const auto& [key, pod] : pods_) {
    if (pod.cluster != cluster || pod.namespace_name != namespace_name) continue;
    if (pod.created_at >= end || (pod.deleted_at && *pod.deleted_at <= start)) continue;
    teams.insert(pod.team_label);
  }
  std::vector<PodTeamEvidence> out;
  for (const std::string& team : teams) out.push_back({cluster, namespace_name, team, 0});
  return out;
}

absl::StatusOr<std::map<std::pair<std::string, std::string>, NamespaceLabels>> MemoryTeamFactsRepository::Namespaces(
    const std::string& cluster, const std::string& namespace_name) {
  std::lock_guard<std::mutex> lock(mu_);
  std::map<std::pair<std::string, std::string>, NamespaceLabels> out;
  for (const auto& [key, ns] : namespaces_) {
    // PostgreSQL keeps a namespace as its label rows: one without any is not there.
    if (ns.labels.empty() && ns.annotations.empty()) continue;
    if ((cluster.empty() || key.first == cluster) && (namespace_name.empty() || key.second == namespace_name)) {
      out[key] = ns;
    }
  }
  return out;
}

absl::StatusOr<std::vector<PolicyVersionRecord>> MemoryTeamFactsRepository::PoliciesAfter(int32_t after_version) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<PolicyVersionRecord> out;
  for (const PolicyVersionRecord& p : policies_) {
    if (p.version > after_version) out.push_back(p);
  }
  return out;
}

}  // namespace fleetcap::store

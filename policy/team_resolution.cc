#include "policy/team_resolution.h"

#include "policy/text_rules.h"

namespace fleetcap::policy {

TeamResolver::TeamResolver(std::shared_ptr<const PolicyDocument> policy) : policy_(std::move(policy)) {
  for (const auto& t : policy_->teams) teams_.insert(t.name);
}

const PodTrust* TeamResolver::TrustFor(const std::string& cluster, const std::string& namespace_name,
                                       bool PodTrust::*what) const {
  for (const auto& t : policy_->trusted_pods) {
    if (t.*what && GlobMatch(t.cluster, cluster) && GlobMatch(t.namespace_pattern, namespace_name)) return &t;
  }
  return nullptr;
}

bool TeamResolver::TrustsTeamLabel(const std::string& cluster, const std::string& namespace_name) const {
  return TrustFor(cluster, namespace_name, &PodTrust::team_label) != nullptr;
}

bool TeamResolver::TrustsGpuShare(const std::string& cluster, const std::string& namespace_name) const {
  return TrustFor(cluster, namespace_name, &PodTrust::gpu_share) != nullptr;
}

const std::string* TeamResolver::LabelTeam(const std::map<std::string, std::string>& values) const {
  for (const auto& key : policy_->team_label_keys) {
    auto it = values.find(key);
    if (it != values.end() && teams_.count(it->second) > 0) return &it->second;
  }
  return nullptr;
}

std::string TeamResolver::TeamOf(const PodEvidence& pod, const NamespaceEvidence* ns) const {
  if (!pod.team_label.empty() && teams_.count(pod.team_label) > 0 && TrustsTeamLabel(pod.cluster, pod.namespace_name)) {
    return pod.team_label;
  }
  for (const auto& rule : policy_->namespaces) {
    if (!rule.namespace_name.empty() && rule.namespace_name == pod.namespace_name &&
        GlobMatch(rule.cluster, pod.cluster)) {
      return rule.team;
    }
  }
  for (const auto& rule : policy_->namespaces) {
    if (!rule.pattern.empty() && GlobMatch(rule.pattern, pod.namespace_name) && GlobMatch(rule.cluster, pod.cluster)) {
      return rule.team;
    }
  }
  if (ns != nullptr) {
    if (const std::string* team = LabelTeam(ns->labels)) return *team;
    if (const std::string* team = LabelTeam(ns->annotations)) return *team;
  }
  return kUnassignedTeam;
}

}  // namespace fleetcap::policy

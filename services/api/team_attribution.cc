#include "services/api/team_attribution.h"

#include "common/status_macros.h"

namespace fleetcap::api {
namespace {

policy::NamespaceEvidence EvidenceOf(const store::NamespaceLabels& ns) { return {ns.labels, ns.annotations}; }

}  // namespace

TeamAttribution::TeamAttribution(store::TeamFactsRepository* facts)
    : facts_(facts), timeline_([facts](int32_t after) -> absl::StatusOr<std::vector<policy::StoredPolicy>> {
        FLEETCAP_ASSIGN_OR_RETURN(auto records, facts->PoliciesAfter(after));
        std::vector<policy::StoredPolicy> out;
        for (auto& r : records) out.push_back({r.version, r.applied_at, std::move(r.document)});
        return out;
      }) {}

absl::StatusOr<std::map<std::string, int64_t>> TeamAttribution::HeldByTeamAt(const std::string& cluster,
                                                                             absl::Time at) {
  FLEETCAP_RETURN_IF_ERROR(timeline_.Refresh());
  FLEETCAP_ASSIGN_OR_RETURN(auto holders, facts_->HoldersAt(cluster, at));
  FLEETCAP_ASSIGN_OR_RETURN(auto namespaces, facts_->Namespaces(cluster, ""));
  std::map<std::pair<std::string, std::string>, policy::NamespaceEvidence> evidence;
  for (const auto& [key, ns] : namespaces) evidence[key] = EvidenceOf(ns);
  const policy::PolicyInForce in_force = timeline_.At(at);
  std::map<std::string, int64_t> held;
  for (const auto& pod : holders) {
    auto ns = evidence.find({pod.cluster, pod.namespace_name});
    const std::string team = in_force.teams->TeamOf({pod.cluster, pod.namespace_name, pod.team_label},
                                                    ns == evidence.end() ? nullptr : &ns->second);
    held[team] += pod.held_milli;
  }
  return held;
}

absl::StatusOr<std::vector<std::string>> TeamAttribution::TeamsOfPodsAt(const std::vector<store::PodTeamEvidence>& pods,
                                                                        absl::Time at) {
  std::vector<std::string> teams;
  if (pods.empty()) return teams;
  FLEETCAP_RETURN_IF_ERROR(timeline_.Refresh());
  FLEETCAP_ASSIGN_OR_RETURN(auto namespaces, facts_->Namespaces("", ""));
  const policy::PolicyInForce in_force = timeline_.At(at);
  for (const auto& pod : pods) {
    auto ns = namespaces.find({pod.cluster, pod.namespace_name});
    policy::NamespaceEvidence evidence;
    if (ns != namespaces.end()) evidence = EvidenceOf(ns->second);
    teams.push_back(in_force.teams->TeamOf({pod.cluster, pod.namespace_name, pod.team_label},
                                           ns == namespaces.end() ? nullptr : &evidence));
  }
  return teams;
}

absl::StatusOr<std::set<std::string>> TeamAttribution::TeamsOfNamespace(const std::string& cluster,
                                                                        const std::string& namespace_name,
                                                                        absl::Time start, absl::Time end) {
  FLEETCAP_RETURN_IF_ERROR(timeline_.Refresh());
  FLEETCAP_ASSIGN_OR_RETURN(auto pods, facts_->PodsOfNamespace(cluster, namespace_name, start, end));
  FLEETCAP_ASSIGN_OR_RETURN(auto namespaces, facts_->Namespaces(cluster, namespace_name));
  policy::NamespaceEvidence evidence;
  const bool known = !namespaces.empty();
  if (known) evidence = EvidenceOf(namespaces.begin()->second);
  std::set<std::string> teams;
  for (const auto& in_force : timeline_.During(start, end)) {
    teams.insert(in_force.teams->TeamOf({cluster, namespace_name, ""}, known ? &evidence : nullptr));
    for (const auto& pod : pods) {
      teams.insert(in_force.teams->TeamOf({cluster, namespace_name, pod.team_label}, known ? &evidence : nullptr));
    }
  }
  return teams;
}

}  // namespace fleetcap::api

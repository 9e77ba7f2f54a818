#include "optimizer/teams/team_directory.h"

#include <utility>

#include "common/status_macros.h"

namespace fleetcap::teams {

policy::PolicyTimeline::Fetch PoliciesOf(store::TeamFactsRepository* facts) {
  return [facts](int32_t after) -> absl::StatusOr<std::vector<policy::StoredPolicy>> {
    FLEETCAP_ASSIGN_OR_RETURN(auto records, facts->PoliciesAfter(after));
    std::vector<policy::StoredPolicy> out;
    for (auto& r : records) out.push_back({r.version, r.applied_at, std::move(r.document)});
    return out;
  };
}

absl::StatusOr<NamespaceEvidenceBook> NamespaceEvidenceBook::Read(store::TeamFactsRepository* facts,
                                                                  const std::string& cluster,
                                                                  const std::string& namespace_name) {
  FLEETCAP_ASSIGN_OR_RETURN(auto namespaces, facts->Namespaces(cluster, namespace_name));
  attribution::NamespaceEvidenceMap evidence;
  for (auto& [key, ns] : namespaces) evidence[key] = {std::move(ns.labels), std::move(ns.annotations)};
  return NamespaceEvidenceBook(std::move(evidence));
}

const policy::NamespaceEvidence* NamespaceEvidenceBook::Find(const std::string& cluster,
                                                             const std::string& namespace_name) const {
  auto ns = namespaces_.find({cluster, namespace_name});
  return ns == namespaces_.end() ? nullptr : &ns->second;
}

const policy::NamespaceEvidence* NamespaceEvidenceBook::First() const {
  return namespaces_.empty() ? nullptr : &namespaces_.begin()->second;
}

absl::StatusOr<std::vector<std::string>> ResolveTeams(store::TeamFactsRepository* facts,
                                                      const policy::TeamResolver& resolver,
                                                      const std::vector<policy::PodEvidence>& pods) {
  std::vector<std::string> teams;
  if (pods.empty()) return teams;
  FLEETCAP_ASSIGN_OR_RETURN(const NamespaceEvidenceBook book, NamespaceEvidenceBook::Read(facts, "", ""));
  teams.reserve(pods.size());
  for (const policy::PodEvidence& pod : pods) teams.push_back(book.TeamOf(resolver, pod));
  return teams;
}

TeamDirectory::TeamDirectory(store::TeamFactsRepository* facts)
    : facts_(facts), owned_(std::make_unique<policy::PolicyTimeline>(PoliciesOf(facts))), timeline_(owned_.get()) {}

TeamDirectory::TeamDirectory(store::TeamFactsRepository* facts, policy::PolicyTimeline* timeline)
    : facts_(facts), timeline_(timeline) {}

absl::StatusOr<std::shared_ptr<const attribution::TeamSchedule>> TeamDirectory::Schedule(int32_t up_to) const {
  FLEETCAP_ASSIGN_OR_RETURN(NamespaceEvidenceBook book, Namespaces("", ""));
  return std::make_shared<attribution::PolicyTimelineTeams>(*timeline_, std::move(book).namespaces(), up_to);
}

absl::StatusOr<std::map<std::string, int64_t>> TeamDirectory::HeldByTeamAt(const std::string& cluster, absl::Time at,
                                                                           int32_t up_to) {
  FLEETCAP_RETURN_IF_ERROR(Refresh());
  FLEETCAP_ASSIGN_OR_RETURN(auto holders, facts_->HoldersAt(cluster, at));
  FLEETCAP_ASSIGN_OR_RETURN(const NamespaceEvidenceBook book, Namespaces(cluster, ""));
  const policy::PolicyInForce in_force = timeline_->At(at, up_to);
  std::map<std::string, int64_t> held;
  for (const store::PodTeamEvidence& pod : holders) {
    held[book.TeamOf(*in_force.teams, {pod.cluster, pod.namespace_name, pod.team_label})] += pod.held_milli;
  }
  return held;
}

absl::StatusOr<std::vector<std::string>> TeamDirectory::TeamsOfPodsAt(const std::vector<store::PodTeamEvidence>& pods,
                                                                      absl::Time at, int32_t up_to) {
  if (pods.empty()) return std::vector<std::string>();
  FLEETCAP_RETURN_IF_ERROR(Refresh());
  std::vector<policy::PodEvidence> evidence;
  evidence.reserve(pods.size());
  for (const store::PodTeamEvidence& pod : pods) evidence.push_back({pod.cluster, pod.namespace_name, pod.team_label});
  return ResolveTeams(facts_, *timeline_->At(at, up_to).teams, evidence);
}

absl::StatusOr<std::set<std::string>> TeamDirectory::TeamsOfNamespace(const std::string& cluster,
                                                                      const std::string& namespace_name,
                                                                      absl::Time start, absl::Time end, int32_t up_to) {
  FLEETCAP_RETURN_IF_ERROR(Refresh());
  FLEETCAP_ASSIGN_OR_RETURN(auto pods, facts_->PodsOfNamespace(cluster, namespace_name, start, end));
  FLEETCAP_ASSIGN_OR_RETURN(const NamespaceEvidenceBook book, Namespaces(cluster, namespace_name));
  // Asked by namespace alone (cluster ""), the evidence is that of the first
  // cluster that has the namespace.
  const policy::NamespaceEvidence* evidence = book.First();
  std::set<std::string> teams;
  for (const policy::PolicyInForce& in_force : timeline_->During(start, end, up_to)) {
    teams.insert(in_force.teams->TeamOf({cluster, namespace_name, ""}, evidence));
    for (const store::PodTeamEvidence& pod : pods) {
      teams.insert(in_force.teams->TeamOf({cluster, namespace_name, pod.team_label}, evidence));
    }
  }
  return teams;
}

}  // namespace fleetcap::teams

#include "services/api/allocation/recommendations_query.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "policy/text_rules.h"
#include "proto_time.h"
#include "services/api/allocation/flavor_node_labels.h"
#include "services/exports/recommendation_set.h"

namespace fleetcap::api {

absl::StatusOr<TeamSelection> RecommendationsQuery::Select(const Scope& scope, const std::string& team) const {
  if (!team.empty() && !policy::IsName(team)) {
    const std::string shown = team.size() > 64 ? absl::StrCat(team.size(), " bytes") : absl::StrCat("\"", team, "\"");
    return absl::InvalidArgumentError(absl::StrCat("team: ", shown, " is not a team name (1-63 of A-Z a-z 0-9 . _ -)"));
  }
  const bool team_token = scope.role == Role::kTeam;
  if (team_token && !team.empty() && !scope.Covers(team)) return OutOfScope("team");
  if (team.empty()) {
    if (!team_token) return TeamSelection();
    return TeamSelection(std::set<std::string>(scope.teams.begin(), scope.teams.end()));
  }
  // The team and those under it in the active policy; just the team when the
  // policy does not know it (a run may outlive the team it named).
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));
  std::vector<std::string> subtree;
  if (policy->valid) subtree = policy::Subtree(policy->document, team);
  if (subtree.empty()) subtree = {team};
  std::set<std::string> selected;
  for (const std::string& t : subtree) {
    // A team token's own subtree is the one it was authenticated with.
    if (!team_token || scope.Covers(t)) selected.insert(t);
  }
  return TeamSelection(std::move(selected));
}

absl::StatusOr<v1::RecommendationSet> RecommendationsQuery::Latest(const TeamSelection& teams) const {
  FLEETCAP_ASSIGN_OR_RETURN(const auto run, runs_->LatestRun());
  if (!run.has_value()) {
    return absl::NotFoundError(
        "recommendations: no allocation run yet; fleetcap-optimizer stores one after attribution");
  }
  FLEETCAP_ASSIGN_OR_RETURN(const auto previous, runs_->RunBefore(run->run_id));
  return ToRecommendationSet(*run, teams, previous.has_value() ? &*previous : nullptr);
}

absl::StatusOr<v1::RecommendationSet> RecommendationsQuery::Run(const Scope& scope,
                                                                const v1::GetRecommendationsRequest& request) const {
  FLEETCAP_ASSIGN_OR_RETURN(const TeamSelection teams, Select(scope, request.team()));
  FLEETCAP_ASSIGN_OR_RETURN(v1::RecommendationSet set, Latest(teams));
  FLEETCAP_RETURN_IF_ERROR(AddNodeLabels(scope, set));
  return set;
}

absl::Status RecommendationsQuery::AddNodeLabels(const Scope& scope, v1::RecommendationSet& set) const {
  if (scope.role == Role::kTeam || policy_versions_ == nullptr || inventory_ == nullptr) return absl::OkStatus();
  absl::StatusOr<policy::PolicyDocument> policy = PolicyOfSet(set, *policy_versions_);
  if (absl::IsNotFound(policy.status()) || absl::IsInvalidArgument(policy.status())) return absl::OkStatus();
  if (!policy.ok()) return policy.status();
  std::set<std::string> flavors;
  for (const v1::Recommendation& r : set.recommendations()) flavors.insert(r.flavor());
  FLEETCAP_ASSIGN_OR_RETURN(const FlavorLabels labels, SharedFlavorNodeLabels(*policy, flavors, *inventory_));
  SetFlavorNodeLabels(labels, set);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<int64_t>> RecommendationsQuery::LatestRunId() const { return runs_->LatestRunId(); }

v1::RecommendationSet ToRecommendationSet(const store::AllocationRunRecord& run, const TeamSelection& teams,
                                          const store::AllocationRunRecord* previous) {
  std::map<std::pair<std::string, std::string>, int64_t> before;
  if (previous != nullptr) {
    for (const auto& r : previous->recommendations) before[{r.team, r.flavor}] = r.recommended_milli;
  }
  v1::RecommendationSet set;
  set.set_run_id(run.run_id);
  if (previous != nullptr) set.set_previous_run_id(previous->run_id);
  *set.mutable_computed_at() = ToProtoTimestamp(run.computed_at);
  set.set_policy_version(run.policy_version);
  for (const store::AllocationRecommendationRecord& r : run.recommendations) {
    if (teams.has_value() && teams->count(r.team) == 0) continue;
    v1::Recommendation* out = set.add_recommendations();
    out->set_team(r.team);
    out->set_flavor(r.flavor);
    out->set_demand_milli(r.demand_milli);
    out->set_guarantee_milli(r.guarantee_milli);
    out->set_recommended_milli(r.recommended_milli);
    if (r.borrowing_limit_milli.has_value()) out->set_borrowing_limit_milli(*r.borrowing_limit_milli);
    out->set_lending_limit_milli(r.lending_limit_milli);
    out->set_bound_by(r.bound_by);
    out->set_explanation(r.explanation);
    if (r.measured_demand_milli.has_value()) out->set_measured_demand_milli(*r.measured_demand_milli);
    // What the Kueue manifests of this run write, so that people see the limits the scheduler enforces.
    exports::SetKueueLimits(*out);
    if (auto b = before.find({r.team, r.flavor}); b != before.end()) out->set_previous_recommended_milli(b->second);
  }
  return set;
}

absl::StatusOr<v1::GetRecommendationsRequest> RecommendationsRequestFromQuery(const HttpQuery& query,
                                                                              const QueryMapping& mapping) {
  v1::GetRecommendationsRequest request;
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  return request;
}

}  // namespace fleetcap::api

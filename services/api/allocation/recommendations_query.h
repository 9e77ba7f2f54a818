#pragma once
// AllocationService.GetRecommendations as a transport-free operation over
// the stored allocation runs (store/allocation_run_repository.h). The gRPC
// service, the HTTP route and the watch (recommendation_watchers.h) are thin
// adapters over it (docs/allocation.md, "The API").
//
// What a caller sees follows from its scope: admins, planners and
// schedulers every team; a team token its own team and the teams under it in
// the active policy's org tree (the Scope's subtree), nothing else.

#include <map>
#include <optional>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/allocation.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "services/api/query_message.h"
#include "store/allocation_run_repository.h"
#include "store/control_repositories.h"
#include "store/inventory_reader.h"

namespace fleetcap::api {

// Which teams' recommendations an answer keeps; none: every team.
using TeamSelection = std::optional<std::set<std::string>>;

class RecommendationsQuery {
 public:
  // All must outlive the query; the repositories must be thread-safe.
  // Without `policy_versions` and `inventory`, no set carries node labels.
  RecommendationsQuery(store::AllocationRunReadRepository* runs, const ActivePolicyCache* policies,
                       store::PolicyRepository* policy_versions = nullptr, store::InventoryReader* inventory = nullptr)
      : runs_(runs), policies_(policies), policy_versions_(policy_versions), inventory_(inventory) {}

  // The teams `scope` reads when it asks for `team` ("" for every team it may
  // read). INVALID_ARGUMENT when `team` is not a team name; PERMISSION_DENIED
  // when a team token names a team outside its subtree (the same answer
  // whether or not that team exists).
  absl::StatusOr<TeamSelection> Select(const Scope& scope, const std::string& team) const;

  // The newest run, cut to `teams`, with what the run before it recommended
  // for the same (team, flavor). NOT_FOUND before the first run.
  absl::StatusOr<v1::RecommendationSet> Latest(const TeamSelection& teams) const;

  // Adds to `set` the node labels its flavors share in the inventory
  // (RecommendationSet.flavor_node_labels, SharedFlavorNodeLabels), read
  // under the policy version its run applied; nothing for a team token, and
  // nothing when that version cannot be read (not stored, or no longer
  // parsed: the set is still served).
  absl::Status AddNodeLabels(const Scope& scope, v1::RecommendationSet& set) const;

  // Select, then Latest, then AddNodeLabels.
  absl::StatusOr<v1::RecommendationSet> Run(const Scope& scope, const v1::GetRecommendationsRequest& request) const;

  // The newest run's id; none before the first run. What the watch polls.
  absl::StatusOr<std::optional<int64_t>> LatestRunId() const;

 private:
  store::AllocationRunReadRepository* runs_;
  const ActivePolicyCache* policies_;
  store::PolicyRepository* policy_versions_;
  store::InventoryReader* inventory_;
};

// A stored run as the API's message, keeping only `teams`' recommendations;
// with `previous` (the run before it), each recommendation says what that
// run recommended for the same (team, flavor).
v1::RecommendationSet ToRecommendationSet(const store::AllocationRunRecord& run, const TeamSelection& teams,
                                          const store::AllocationRunRecord* previous = nullptr);

// The request of `GET /v1/recommendations[?team=]`; `mapping` names the
// parameters a route over the same request reads itself.
absl::StatusOr<v1::GetRecommendationsRequest> RecommendationsRequestFromQuery(const HttpQuery& query,
                                                                              const QueryMapping& mapping = {});

}  // namespace fleetcap::api

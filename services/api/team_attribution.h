#pragma once
// Teams of stored facts, resolved with the policy version in force at the
// time asked about by the team directory (optimizer/teams/team_directory.h):
// the fleet summary's held milli-devices per team, and the teams a
// namespace's usage belongs to (what a team token may read). Thread-safe.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/teams/team_directory.h"
#include "store/team_facts_repository.h"

namespace fleetcap::api {

class TeamAttribution {
 public:
  // `facts` must outlive this.
  explicit TeamAttribution(store::TeamFactsRepository* facts);

  // Each resolves as if no policy version numbered above `up_to` had been
  // applied: PolicyVersionOf(scope) answers a request under the version it
  // was authorised under (auth.h).

  // Milli-devices held at `at` per team, in `cluster` ("" every cluster).
  absl::StatusOr<std::map<std::string, int64_t>> HeldByTeamAt(const std::string& cluster, absl::Time at,
                                                              int32_t up_to = policy::PolicyTimeline::kEveryVersion);

  // Every team that usage of `namespace_name` in `cluster` over [start, end)
  // is attributed to: the namespace's own team and that of each of its pods,
  // under each policy version in force during the window.
  // The team of each pod (its cluster, namespace and own team label, in
  // `pods`' order) under the policy in force at `at`.
  absl::StatusOr<std::vector<std::string>> TeamsOfPodsAt(const std::vector<store::PodTeamEvidence>& pods, absl::Time at,
                                                         int32_t up_to = policy::PolicyTimeline::kEveryVersion);

  absl::StatusOr<std::set<std::string>> TeamsOfNamespace(const std::string& cluster, const std::string& namespace_name,
                                                         absl::Time start, absl::Time end,
                                                         int32_t up_to = policy::PolicyTimeline::kEveryVersion);

  // The process's one directory, for a reader that needs more than the
  // above (the chargeback explanation loads a window over it).
  teams::TeamDirectory* directory() { return &directory_; }

 private:
  teams::TeamDirectory directory_;
};

}  // namespace fleetcap::api

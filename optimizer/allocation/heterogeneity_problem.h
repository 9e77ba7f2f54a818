#pragma once
// The heterogeneity-aware allocation of a policy and a demand.yaml
// (docs/allocation.md "Heterogeneity"): the policy's throughput matrix and
// each leaf team's workload class, with its demand, guarantees and borrowing
// limits, to the LP (heterogeneity_lp.h) and back to recommendations.

#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/allocation/allocation_problem.h"
#include "optimizer/allocation/heterogeneity_lp.h"
#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"

namespace fleetcap::allocation {

// Every leaf team with a rule or a demand on some flavor of `problem` takes
// part with its policy weight (`teams[].weight`) and, as its demand, the sum of
// its demand over the flavors: the devices it runs at once, on whichever
// flavors it is given. On each flavor its floor is min(d, g) and its limit
// g + b. INVALID_ARGUMENT naming the team for a team without a workload class.
absl::StatusOr<HeterogeneityProblem> BuildHeterogeneityProblem(const policy::PolicyDocument& policy,
                                                               const AllocationProblem& problem);

// One recommendation per team and flavor that has a rule, a demand or some
// devices, ordered by team then flavor; bound_by `demand` when the team got
// all it runs at once, `borrowing_limit` on a flavor where g + b stopped it,
// else `fair_share`.
std::vector<Recommendation> HeterogeneityRecommendations(const AllocationProblem& problem,
                                                         const HeterogeneityAllocation& allocation);

}  // namespace fleetcap::allocation

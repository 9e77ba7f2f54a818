#pragma once
// Which engine divides a policy's allocation problem, and the one code path
// that runs it (docs/allocation.md "Which engine"): the offline solver
// (`allocate`, chosen by `--heterogeneity`) and the optimizer daemon (chosen
// by the policy) both recommend through RecommendPolicyProblem, so the same
// policy and demand give the same recommendations either way.

#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/allocation/allocation_problem.h"
#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"

namespace fleetcap::allocation {

enum class AllocationEngine {
  kWaterFilling,   // per flavor, hierarchical weighted max-min (allocation_engine.h)
  kHeterogeneity,  // over the throughput matrix, the LP (heterogeneity_problem.h)
};

// "water_filling" or "heterogeneity": the name a stored run's inputs record.
const char* EngineName(AllocationEngine engine);

// The daemon's choice: the heterogeneity-aware LP when the policy declares a
// throughput matrix and every leaf team has a workload class (the LP needs
// one for every team that takes part), else water-filling. Depends on the
// policy alone, so a policy version always runs the same engine.
AllocationEngine EngineForPolicy(const policy::PolicyDocument& policy);

// The recommendations of `problem` (BuildPolicyProblem of `policy`, without
// errors) by `engine`, ordered by team then flavor. INVALID_ARGUMENT when the
// engine refuses the problem (e.g. the LP and a team without a workload class).
absl::StatusOr<std::vector<Recommendation>> RecommendPolicyProblem(const policy::PolicyDocument& policy,
                                                                   const AllocationProblem& problem,
                                                                   AllocationEngine engine);

}  // namespace fleetcap::allocation

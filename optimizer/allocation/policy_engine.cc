#include "optimizer/allocation/policy_engine.h"

#include <set>
#include <string>

#include "common/status_macros.h"
#include "optimizer/allocation/allocation_engine.h"
#include "optimizer/allocation/heterogeneity_problem.h"
#include "optimizer/allocation/whole_devices.h"

namespace fleetcap::allocation {

const char* EngineName(AllocationEngine engine) {
  return engine == AllocationEngine::kHeterogeneity ? "heterogeneity" : "water_filling";
}

AllocationEngine EngineForPolicy(const policy::PolicyDocument& policy) {
  if (policy.throughput.empty()) return AllocationEngine::kWaterFilling;
  std::set<std::string> parents;
  for (const policy::Team& t : policy.teams) {
    if (!t.parent.empty()) parents.insert(t.parent);
  }
  for (const policy::Team& t : policy.teams) {
    if (parents.count(t.name) == 0 && t.workload_class.empty()) return AllocationEngine::kWaterFilling;
  }
  return AllocationEngine::kHeterogeneity;
}

absl::StatusOr<std::vector<Recommendation>> RecommendPolicyProblem(const policy::PolicyDocument& policy,
                                                                   const AllocationProblem& problem,
                                                                   AllocationEngine engine) {
  std::vector<Recommendation> out;
  if (engine == AllocationEngine::kHeterogeneity) {
    FLEETCAP_ASSIGN_OR_RETURN(HeterogeneityProblem lp, BuildHeterogeneityProblem(policy, problem));
    FLEETCAP_ASSIGN_OR_RETURN(HeterogeneityAllocation allocated, AllocateHeterogeneous(lp));
    out = HeterogeneityRecommendations(problem, allocated);
  } else {
    FLEETCAP_ASSIGN_OR_RETURN(std::vector<FlavorAllocation> flavors, Allocate(problem));
    out = Recommendations(flavors);
  }
  // The engines divide in milli-devices; a flavor of whole devices is quoted in whole devices.
  RoundToWholeDevices(policy, problem, out);
  return out;
}

}  // namespace fleetcap::allocation

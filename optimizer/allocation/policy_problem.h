#pragma once
// The allocation problem of a policy and a demand.yaml: the policy's org
// tree, flavors (capacity from demand.yaml where it gives one) and allocation
// rules, and the declared demand (docs/allocation.md).

#include <vector>

#include "optimizer/allocation/allocation_problem.h"
#include "optimizer/allocation/demand_document.h"
#include "policy/policy_document.h"
#include "policy/policy_parser.h"

namespace fleetcap::allocation {

// Where each problem comes from, for messages that name a file and line.
struct ProblemErrors {
  std::vector<policy::PolicyError> policy;  // about policy.yaml
  std::vector<policy::PolicyError> demand;  // about demand.yaml
  bool empty() const { return policy.empty() && demand.empty(); }
};

struct PolicyProblem {
  AllocationProblem problem;  // meaningful only when errors is empty
  ProblemErrors errors;
};

// Flavors in the policy's order; in each, every leaf team with an allocation
// rule or a declared demand on it, in name order. A leaf's weight on a flavor
// is its rule's `weight` when the rule gives one, else the team's. Errors:
// demand or capacity for an unknown team or flavor, demand or a rule on a team
// with teams below it (they are leaves' only).
PolicyProblem BuildPolicyProblem(const policy::PolicyDocument& policy, const DemandDocument& demand);

}  // namespace fleetcap::allocation

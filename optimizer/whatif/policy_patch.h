#pragma once
// The policy a scenario runs with: a stored version, or the active policy
// with some sections replaced by a patch. A patched policy is validated as
// a whole, and each problem is reported at the scenario's line it comes
// from (the patch entry, or the patch itself when an unchanged section is
// what no longer fits).

#include <string>

#include "absl/status/statusor.h"
#include "optimizer/whatif/planning_state.h"
#include "optimizer/whatif/scenario_document.h"
#include "policy/policy_document.h"

namespace fleetcap::whatif {

struct PolicyInUse {
  policy::PolicyDocument document;
  int32_t version = 0;  // 0: patched
};

// The baseline's policy: the state's active one. INTERNAL if it does not parse (it was validated when applied).
absl::StatusOr<PolicyInUse> ActivePolicy(const PlanningState& state);

// The scenario's policy (the active one when it names none).
absl::StatusOr<PolicyInUse> ScenarioPolicy(const PlanningState& state, const ScenarioDocument& scenario);

}  // namespace fleetcap::whatif

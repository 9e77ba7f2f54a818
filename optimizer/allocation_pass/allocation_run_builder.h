#pragma once
// The allocation run's builder, pure: the policy in force and the loaded
// demand history in, the run to store out. Each team's demand is measured
// (optimizer/allocation/measured_demand.h), the policy's allocation solved
// over it, and every recommendation explained by how its demand was measured
// and what bound it.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/allocation/measured_demand.h"
#include "optimizer/allocation/policy_engine.h"
#include "optimizer/planning_state/demand_history_loader.h"
#include "policy/policy_document.h"
#include "store/allocation_run_repository.h"

namespace fleetcap::optimizer {

// What a run is computed from, besides the policy and the history.
struct AllocationRunInputs {
  int32_t policy_version = 0;
  std::string inputs_json;  // as AllocationPass::InputsJson gives it
  allocation::AllocationEngine engine;
  absl::Time computed_at;
  absl::Time history_end;  // where the held history ends
  allocation::MeasuredDemandOptions demand;
};

struct BuiltAllocationRun {
  store::AllocationRunDraft draft;
  allocation::UnplacedDemand unplaced;
};

// INTERNAL when the measured demand does not make a problem of the policy.
absl::StatusOr<BuiltAllocationRun> BuildAllocationRun(const policy::PolicyDocument& policy,
                                                      const planning_state::DemandHistory& history,
                                                      const AllocationRunInputs& inputs);

}  // namespace fleetcap::optimizer

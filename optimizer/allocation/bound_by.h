#pragma once
// What bound a team's recommendation and the one line that says so
// (docs/allocation.md "What bound it").

#include "optimizer/allocation/allocation_engine.h"

namespace fleetcap::allocation {

// Sets `team.bound_by` and `team.explanation` from its quantities, its
// unrounded allocation and the flavor's totals.
void Explain(const FlavorAllocation& flavor, TeamAllocation& team);

}  // namespace fleetcap::allocation

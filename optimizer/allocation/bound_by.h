#pragma once
// What bound a team's recommendation and the one line that says so
// (docs/allocation.md "What bound it"). The engine sets `bound_by` for every
// team; the line is written only when a recommendation is made of it
// (recommendation.h), so the solve itself formats no text.

#include <string>

#include "optimizer/allocation/allocation_engine.h"

namespace fleetcap::allocation {

// Sets `team.bound_by` from its quantities, its unrounded allocation and the
// flavor's totals.
void SetBoundBy(const FlavorAllocation& flavor, TeamAllocation& team);

// The line that explains `team`'s recommendation, by the same rules.
std::string Explanation(const FlavorAllocation& flavor, const TeamAllocation& team);

}  // namespace fleetcap::allocation

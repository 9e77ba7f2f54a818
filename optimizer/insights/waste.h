#pragma once
// The waste engine (docs/insights.md, "Waste"): a pod's devices held idle
// for long enough, in device time and money, and each workload's held,
// observed and active device time per hour. Pure: no store, no clock.

#include "absl/status/statusor.h"
#include "optimizer/insights/waste_facts.h"

namespace fleetcap::insights {

// The idle runs inside [input.start, input.end), looked for from
// `input.history_from`, and the workload hours of the window.
// INVALID_ARGUMENT: a window not of whole hours, or history after its start.
absl::StatusOr<WasteFacts> FindWaste(const WasteInput& input);

}  // namespace fleetcap::insights

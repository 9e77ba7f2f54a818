#pragma once
// whatif::ScenarioComparison as the API's message (proto/fleetcap/v1/planning.proto).

#include "fleetcap/v1/planning.pb.h"
#include "optimizer/whatif/scenario_run.h"

namespace fleetcap::api {

v1::ScenarioComparison ScenarioComparisonToProto(const whatif::ScenarioComparison& comparison, absl::Time history_end);

}  // namespace fleetcap::api

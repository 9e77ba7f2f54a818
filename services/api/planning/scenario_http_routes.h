#pragma once
// PlanningService's what-if routes (docs/whatif.md):
//   POST /v1/scenarios/run   body RunScenarioRequest   -> ScenarioComparison
//   POST /v1/scenarios       body SaveScenarioRequest  -> SavedScenario
//   GET  /v1/scenarios[?before_id=&limit=]             -> ScenarioList
//   GET  /v1/scenarios/get?id=N                        -> SavedScenario
// Bodies are the proto3 JSON of the request messages, at most
// kMaxScenarioRequestBytes (the scenario itself at most 64 KiB).

#include <cstddef>

#include "services/api/http_gateway.h"
#include "services/api/planning/scenario_operations.h"

namespace fleetcap::api {

// A 64 KiB scenario, escaped as a JSON string, with a name.
inline constexpr size_t kMaxScenarioRequestBytes = 6 * 64 * 1024 + 1024;

// `scenarios` must outlive the gateway.
void AddScenarioRoutes(HttpGateway& gateway, const ScenarioOperations* scenarios);

}  // namespace fleetcap::api

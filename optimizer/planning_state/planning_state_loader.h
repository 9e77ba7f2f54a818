#pragma once
// The planning state a what-if scenario is applied to, read from the store:
// the active policy (and the stored version a scenario names), the held
// history up to the fleet's chargeback watermark and the pods waiting now,
// through the same loader as the optimizer's allocation pass
// (demand_history_loader.h), and the forecast pass's newest stored run,
// which the projected month is read from. Reads only.

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/allocation/measured_demand.h"
#include "optimizer/whatif/planning_state.h"
#include "optimizer/whatif/scenario_document.h"
#include "store/chargeback_repository.h"
#include "store/control_repositories.h"
#include "store/demand_history_repository.h"
#include "store/forecast_repository.h"
#include "store/team_facts_repository.h"

namespace fleetcap::planning_state {

struct PlanningStores {
  store::DemandHistoryRepository* history = nullptr;
  store::TeamFactsRepository* teams = nullptr;
  store::PolicyRepository* policies = nullptr;
  store::ChargebackWriteRepository* chargeback = nullptr;  // the fleet's watermark only
  store::ForecastRepository* forecasts = nullptr;          // the newest stored run (nullptr: none read)
};

struct PlanningStateOptions {
  allocation::MeasuredDemandOptions demand;  // as the optimizer's allocation pass measures it
  int64_t history_hours = 28 * 24;           // held history the projections are fitted on
  int64_t max_pending_pods = 100'000;
};

// FAILED_PRECONDITION before any policy was applied. A stored version the
// scenario names that does not exist is left out (RunScenario then names
// the scenario's line).
absl::StatusOr<whatif::PlanningState> LoadPlanningState(const PlanningStores& stores,
                                                        const PlanningStateOptions& options, absl::Time now,
                                                        const whatif::ScenarioDocument& scenario);

}  // namespace fleetcap::planning_state

#pragma once
// PlanningService's what-if methods over the store (docs/whatif.md): load
// the planning state (optimizer/planning_state/), run the scenario on a copy
// of it (optimizer/whatif/), and, for a save only, store the document and its
// result. A run never writes. Access (planners and admins) is the access
// table's; the handlers receive only authorised scopes.

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "fleetcap/v1/planning.pb.h"
#include "optimizer/planning_state/planning_state_loader.h"
#include "optimizer/whatif/held_projection.h"
#include "services/api/auth.h"
#include "store/scenario_repository.h"

namespace fleetcap::api {

class ScenarioOperations {
 public:
  // All must outlive this. `forecaster` may be null (every series takes the recent average).
  ScenarioOperations(planning_state::PlanningStores stores, planning_state::PlanningStateOptions options,
                     store::ScenarioRepository* saved, const whatif::HeldForecaster* forecaster, const Clock* clock)
      : stores_(stores), options_(options), saved_(saved), forecaster_(forecaster), clock_(clock) {}

  // INVALID_ARGUMENT naming the scenario's line and field; FAILED_PRECONDITION before any policy.
  absl::StatusOr<v1::ScenarioComparison> Run(const Scope& scope, const v1::RunScenarioRequest& request) const;
  absl::StatusOr<v1::SavedScenario> Save(const Scope& scope, const v1::SaveScenarioRequest& request) const;
  absl::StatusOr<v1::ScenarioList> List(const Scope& scope, const v1::ListScenariosRequest& request) const;
  absl::StatusOr<v1::SavedScenario> Get(const Scope& scope, const v1::GetScenarioRequest& request) const;

 private:
  absl::StatusOr<v1::ScenarioComparison> Compare(const std::string& yaml) const;

  planning_state::PlanningStores stores_;
  planning_state::PlanningStateOptions options_;
  store::ScenarioRepository* saved_;
  const whatif::HeldForecaster* forecaster_;
  const Clock* clock_;
};

}  // namespace fleetcap::api

#include "services/api/planning/planning_module.h"

#include "optimizer/whatif/engine_forecaster.h"
#include "services/api/planning/forecast_query.h"
#include "services/api/planning/planning_grpc_service.h"
#include "services/api/planning/planning_http_routes.h"
#include "services/api/planning/scenario_http_routes.h"
#include "services/api/planning/scenario_operations.h"
#include "store/pg_forecast_repository.h"
#include "store/pg_scenario_repository.h"

namespace fleetcap::api {
namespace {

class PlanningModule final : public ApiModule {
 public:
  explicit PlanningModule(const ApiDependencies& deps)
      : forecasts_(deps.pool),
        forecast_query_(&forecasts_),
        saved_(deps.pool),
        scenarios_(planning_state::PlanningStores{deps.demand_history, deps.team_facts, deps.policies, deps.chargeback,
                                                  &forecasts_},
                   planning_state::PlanningStateOptions{}, &saved_, &forecaster_, deps.clock),
        service_(&forecast_query_, &scenarios_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddPlanningRoutes(http, &forecast_query_);
    AddScenarioRoutes(http, &scenarios_);
  }

 private:
  store::PgForecastRepository forecasts_;
  ForecastQuery forecast_query_;
  store::PgScenarioRepository saved_;
  whatif::EngineForecaster forecaster_;  // projects held time for what-if scenarios
  ScenarioOperations scenarios_;
  PlanningGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterPlanning(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<PlanningModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

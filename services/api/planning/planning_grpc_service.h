#pragma once
// gRPC PlanningService: a thin adapter over ForecastQuery and ScenarioOperations, behind GrpcGuard.

#include "fleetcap/v1/planning.grpc.pb.h"
#include "services/api/grpc_guard.h"
#include "services/api/planning/forecast_query.h"
#include "services/api/planning/scenario_operations.h"

namespace fleetcap::api {

class PlanningGrpcService final : public v1::PlanningService::Service {
 public:
  // All must outlive the service.
  PlanningGrpcService(const ForecastQuery* forecasts, const ScenarioOperations* scenarios, const GrpcGuard* guard)
      : forecasts_(forecasts), scenarios_(scenarios), guard_(guard) {}

  grpc::Status GetForecast(grpc::ServerContext* context, const v1::GetForecastRequest* request,
                           v1::Forecast* response) override;
  grpc::Status RunScenario(grpc::ServerContext* context, const v1::RunScenarioRequest* request,
                           v1::ScenarioComparison* response) override;
  grpc::Status SaveScenario(grpc::ServerContext* context, const v1::SaveScenarioRequest* request,
                            v1::SavedScenario* response) override;
  grpc::Status ListScenarios(grpc::ServerContext* context, const v1::ListScenariosRequest* request,
                             v1::ScenarioList* response) override;
  grpc::Status GetScenario(grpc::ServerContext* context, const v1::GetScenarioRequest* request,
                           v1::SavedScenario* response) override;

 private:
  const ForecastQuery* forecasts_;
  const ScenarioOperations* scenarios_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api

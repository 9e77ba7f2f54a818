#include "services/api/planning/planning_grpc_service.h"

#include "common/status_macros.h"

namespace fleetcap::api {
namespace {

// One guarded call: `op` answers into `response`.
template <typename Request, typename Response, typename Op>
grpc::Status Call(const GrpcGuard* guard, grpc::ServerContext* context, const char* method, const Request& request,
                  Response* response, Op op) {
  return guard->Run(context, method, request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, op(scope, request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

}  // namespace

grpc::Status PlanningGrpcService::GetForecast(grpc::ServerContext* context, const v1::GetForecastRequest* request,
                                              v1::Forecast* response) {
  return Call(guard_, context, "/fleetcap.v1.PlanningService/GetForecast", *request, response,
              [&](const Scope& s, const v1::GetForecastRequest& r) { return forecasts_->Run(s, r); });
}

grpc::Status PlanningGrpcService::RunScenario(grpc::ServerContext* context, const v1::RunScenarioRequest* request,
                                              v1::ScenarioComparison* response) {
  return Call(guard_, context, "/fleetcap.v1.PlanningService/RunScenario", *request, response,
              [&](const Scope& s, const v1::RunScenarioRequest& r) { return scenarios_->Run(s, r); });
}

grpc::Status PlanningGrpcService::SaveScenario(grpc::ServerContext* context, const v1::SaveScenarioRequest* request,
                                               v1::SavedScenario* response) {
  return Call(guard_, context, "/fleetcap.v1.PlanningService/SaveScenario", *request, response,
              [&](const Scope& s, const v1::SaveScenarioRequest& r) { return scenarios_->Save(s, r); });
}

grpc::Status PlanningGrpcService::ListScenarios(grpc::ServerContext* context, const v1::ListScenariosRequest* request,
                                                v1::ScenarioList* response) {
  return Call(guard_, context, "/fleetcap.v1.PlanningService/ListScenarios", *request, response,
              [&](const Scope& s, const v1::ListScenariosRequest& r) { return scenarios_->List(s, r); });
}

grpc::Status PlanningGrpcService::GetScenario(grpc::ServerContext* context, const v1::GetScenarioRequest* request,
                                              v1::SavedScenario* response) {
  return Call(guard_, context, "/fleetcap.v1.PlanningService/GetScenario", *request, response,
              [&](const Scope& s, const v1::GetScenarioRequest& r) { return scenarios_->Get(s, r); });
}

}  // namespace fleetcap::api

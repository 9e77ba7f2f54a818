#include "services/api/planning_grpc_service.h"

#include "common/status_macros.h"

namespace fleetcap::api {

grpc::Status PlanningGrpcService::GetForecast(grpc::ServerContext* context, const v1::GetForecastRequest* request,
                                              v1::Forecast* response) {
  return guard_->Run(context, "/fleetcap.v1.PlanningService/GetForecast", [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, forecasts_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

}  // namespace fleetcap::api

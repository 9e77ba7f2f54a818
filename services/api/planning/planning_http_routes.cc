#include "services/api/planning/planning_http_routes.h"

namespace fleetcap::api {

void AddPlanningRoutes(HttpGateway& gateway, const ForecastQuery* forecasts) {
  gateway.AddRoute("GET", "/v1/forecast", [forecasts](const Scope& scope, const HttpQuery& params, const std::string&) {
    auto request = ForecastRequestFromQuery(params);
    if (!request.ok()) return ErrorResponse(request.status());
    auto forecast = forecasts->Run(scope, *request);
    if (!forecast.ok()) return ErrorResponse(forecast.status());
    return JsonResponse(*forecast);
  });
}

}  // namespace fleetcap::api

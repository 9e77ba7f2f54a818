#include "services/api/usage/usage_http_routes.h"

namespace fleetcap::api {

void AddUsageRoutes(HttpGateway& gateway, const UsageQuery* query) {
  gateway.AddRoute("GET", "/v1/usage", [query](const Scope& scope, const HttpQuery& params, const std::string&) {
    auto request = UsageRequestFromQuery(params);
    if (!request.ok()) return ErrorResponse(request.status());
    if (auto allowed = query->Authorize(scope, *request); !allowed.ok()) return ErrorResponse(allowed);
    auto report = query->Run(*request);
    if (!report.ok()) return ErrorResponse(report.status());
    return JsonResponse(*report);
  });
}

}  // namespace fleetcap::api

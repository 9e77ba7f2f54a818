#include "services/api/usage_http_routes.h"

namespace fleetcap::api {

void AddUsageRoutes(HttpGateway& gateway, const UsageQuery* query) {
  gateway.AddGetRoute("/v1/usage", [query](const HttpQuery& params) {
    if (auto status = OnlyKnownParameters(
            params, {"cluster", "start", "end", "resolution", "device", "node", "model", "pod", "namespace"});
        !status.ok()) {
      return ErrorResponse(status);
    }
    auto request = UsageRequestFromQuery(params);
    if (!request.ok()) return ErrorResponse(request.status());
    auto report = query->Run(*request);
    if (!report.ok()) return ErrorResponse(report.status());
    return JsonResponse(*report);
  });
}

}  // namespace fleetcap::api

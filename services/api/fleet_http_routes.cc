#include "services/api/fleet_http_routes.h"

namespace fleetcap::api {

void AddFleetRoutes(HttpGateway& gateway, const FleetSummaryQuery* query) {
  gateway.AddGetRoute("/v1/fleet/summary", [query](const HttpQuery& params) {
    if (auto status = OnlyKnownParameters(params, {"cluster", "at"}); !status.ok()) return ErrorResponse(status);
    const std::string* cluster = QueryValue(params, "cluster");
    auto request = FleetSummaryRequestFromQuery(cluster == nullptr ? "" : *cluster, QueryValue(params, "at"));
    if (!request.ok()) return ErrorResponse(request.status());
    auto summary = query->Run(*request);
    if (!summary.ok()) return ErrorResponse(summary.status());
    return JsonResponse(*summary);
  });
}

}  // namespace fleetcap::api

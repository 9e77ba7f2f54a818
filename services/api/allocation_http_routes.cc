#include "services/api/allocation_http_routes.h"

namespace fleetcap::api {

void AddAllocationRoutes(HttpGateway& gateway, const RecommendationsQuery* query) {
  gateway.AddRoute("GET", "/v1/recommendations",
                   [query](const Scope& scope, const HttpQuery& params, const std::string&) {
                     if (auto status = OnlyKnownParameters(params, {"team"}); !status.ok()) {
                       return ErrorResponse(status);
                     }
                     auto set = query->Run(scope, RecommendationsRequestFromQuery(params));
                     if (!set.ok()) return ErrorResponse(set.status());
                     return JsonResponse(*set);
                   });
}

}  // namespace fleetcap::api

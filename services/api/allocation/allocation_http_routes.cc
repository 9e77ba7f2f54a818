#include "services/api/allocation/allocation_http_routes.h"

namespace fleetcap::api {

void AddAllocationRoutes(HttpGateway& gateway, const RecommendationsQuery* query,
                         const RecommendationManifests* manifests) {
  gateway.AddRoute("GET", "/v1/recommendations",
                   [query](const Scope& scope, const HttpQuery& params, const std::string&) {
                     auto request = RecommendationsRequestFromQuery(params);
                     if (!request.ok()) return ErrorResponse(request.status());
                     auto set = query->Run(scope, *request);
                     if (!set.ok()) return ErrorResponse(set.status());
                     return JsonResponse(*set);
                   });
  gateway.AddRoute("GET", "/v1/recommendations/manifests",
                   [manifests](const Scope& scope, const HttpQuery& params, const std::string&) {
                     auto yaml = manifests->Run(scope, params);
                     if (!yaml.ok()) return ErrorResponse(yaml.status());
                     HttpResponse response;
                     response.body = *std::move(yaml);
                     response.content_type = "text/yaml; charset=utf-8";
                     return response;
                   });
}

}  // namespace fleetcap::api

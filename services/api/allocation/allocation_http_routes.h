#pragma once
// AllocationService's HTTP/JSON routes:
//   GET /v1/recommendations[?team=]
//   GET /v1/recommendations/manifests?format=kueue|volcano[&team=]   (text/yaml)
// The first body is the proto3 JSON of the same RecommendationSet the gRPC
// method returns; 404 before the first allocation run. The watch is gRPC only.

#include "services/api/allocation/recommendation_manifests.h"
#include "services/api/allocation/recommendations_query.h"
#include "services/api/http_gateway.h"

namespace fleetcap::api {

// `query` and `manifests` must outlive the gateway.
void AddAllocationRoutes(HttpGateway& gateway, const RecommendationsQuery* query,
                         const RecommendationManifests* manifests);

}  // namespace fleetcap::api

#pragma once
// AllocationService's HTTP/JSON route:
//   GET /v1/recommendations[?team=]
// The body is the proto3 JSON of the same RecommendationSet the gRPC method
// returns; 404 before the first allocation run. The watch is gRPC only.

#include "services/api/http_gateway.h"
#include "services/api/recommendations_query.h"

namespace fleetcap::api {

// `query` must outlive the gateway.
void AddAllocationRoutes(HttpGateway& gateway, const RecommendationsQuery* query);

}  // namespace fleetcap::api

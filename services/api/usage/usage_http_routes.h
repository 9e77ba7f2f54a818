#pragma once
// UsageService's HTTP/JSON route:
//   GET /v1/usage?cluster=&start=&end=&resolution=minute|hour|day
//                 [&device=|&node=|&model=|&pod=][&namespace=]

#include "services/api/http_gateway.h"
#include "services/api/usage/usage_query.h"

namespace fleetcap::api {

// `query` must outlive the gateway.
void AddUsageRoutes(HttpGateway& gateway, const UsageQuery* query);

}  // namespace fleetcap::api

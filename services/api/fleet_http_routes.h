#pragma once
// FleetService's HTTP/JSON routes:
//   GET /v1/fleet/summary?cluster=&at=   (at in RFC 3339)

#include "services/api/fleet_summary.h"
#include "services/api/http_gateway.h"

namespace fleetcap::api {

// `query` must outlive the gateway.
void AddFleetRoutes(HttpGateway& gateway, const FleetSummaryQuery* query);

}  // namespace fleetcap::api

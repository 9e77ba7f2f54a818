#pragma once
// PlanningService's HTTP/JSON routes:
//   GET /v1/forecast?flavor=&team=&horizon=&what=   (horizon as 72h or 90d)

#include "services/api/http_gateway.h"
#include "services/api/planning/forecast_query.h"

namespace fleetcap::api {

// The query must outlive the gateway.
void AddPlanningRoutes(HttpGateway& gateway, const ForecastQuery* forecasts);

}  // namespace fleetcap::api

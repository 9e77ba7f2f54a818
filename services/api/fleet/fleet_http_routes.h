#pragma once
// FleetService's HTTP/JSON routes:
//   GET /v1/fleet/summary?cluster=&at=   (at in RFC 3339)
//   GET /v1/fleet/capacity?start=&end=&resolution=&group_by=&cluster=&model=&team=
//   GET /v1/fleet/assets?start=&end=&group_by=&cluster=&model=&node=&limit=
//   GET /v1/fleet/assets/export?format=csv&<the same parameters>   (the same answer as CSV)
//   GET /v1/fleet/assets/holds?cluster=&device=&start=&end=
//   GET /v1/fleet/pending?cluster=

#include "services/api/fleet/assets_query.h"
#include "services/api/fleet/capacity_series.h"
#include "services/api/fleet/device_holds.h"
#include "services/api/fleet/fleet_summary.h"
#include "services/api/fleet/pending_demand.h"
#include "services/api/http_gateway.h"
#include "services/api/query_message.h"

namespace fleetcap::api {

// The queries must outlive the gateway.
void AddFleetRoutes(HttpGateway& gateway, const FleetSummaryQuery* query, const CapacitySeriesQuery* capacity,
                    const AssetsQuery* assets, const DeviceHoldsQuery* device_holds, const PendingDemandQuery* pending);

}  // namespace fleetcap::api

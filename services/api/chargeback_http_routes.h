#pragma once
// ChargebackService's HTTP/JSON route:
//   GET /v1/chargeback?start=&end=[&group_by=team,model][&resolution=hour|day|month|none]
//                     [&team=][&cluster=][&namespace=][&workload=][&model=][&line_kind=]
// `group_by` may be comma-separated, repeated, or both. The body is the
// proto3 JSON of the same ChargebackReport the gRPC method returns; an answer
// past kMaxChargebackLines is 413.

#include "services/api/chargeback_query.h"
#include "services/api/http_gateway.h"

namespace fleetcap::api {

// `query` must outlive the gateway.
void AddChargebackRoutes(HttpGateway& gateway, const ChargebackQuery* query);

}  // namespace fleetcap::api

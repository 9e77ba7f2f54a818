#pragma once
// ChargebackService's HTTP/JSON route:
//   GET /v1/chargeback?start=&end=[&group_by=team,model][&resolution=hour|day|month|none]
//                     [&team=][&cluster=][&namespace=][&workload=][&model=][&line_kind=]
// `group_by` may be comma-separated, repeated, or both. The body is the
// proto3 JSON of the same ChargebackReport the gRPC method returns; an answer
// past kMaxChargebackLines is 413, a heavy read without a place 503 with
// Retry-After (heavy_reads.h).

#include "services/api/chargeback/chargeback_query.h"
#include "services/api/http_gateway.h"

namespace fleetcap::api {

// `query` must outlive the gateway.
void AddChargebackRoutes(HttpGateway& gateway, const ChargebackQuery* query);

// The answer of GET /v1/chargeback: JsonResponse of what `query` runs,
// byte for byte, made from ChargebackQuery::Each a thousand lines at a time,
// so that the lines are held once, as JSON, and never also as one message.
HttpResponse ChargebackJsonResponse(const ChargebackQuery& query, const Scope& scope,
                                    const v1::GetChargebackRequest& request);

}  // namespace fleetcap::api

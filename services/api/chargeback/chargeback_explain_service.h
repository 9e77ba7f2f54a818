#pragma once
// ExplainChargeback over gRPC (ChargebackGrpcService delegates to
// ExplainChargebackCall) and GET /v1/chargeback/explain: thin adapters over
// ChargebackExplainQuery.
//   GET /v1/chargeback/explain?team=&hour=[&model=][&cluster=]

#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "services/api/chargeback/chargeback_explain.h"
#include "services/api/grpc_guard.h"
#include "services/api/http_gateway.h"
#include "services/api/http_json.h"

namespace fleetcap::api {

// The method's body, for ChargebackGrpcService.
grpc::Status ExplainChargebackCall(const GrpcGuard* guard, const ChargebackExplainQuery* query,
                                   grpc::ServerContext* context, const v1::ExplainChargebackRequest* request,
                                   v1::ChargebackExplanation* response);

// The request of the route's query parameters; a bad one is INVALID_ARGUMENT naming it.
absl::StatusOr<v1::ExplainChargebackRequest> ExplainRequestFromQuery(const HttpQuery& query);

// `query` must outlive the gateway.
void AddChargebackExplainRoutes(HttpGateway& gateway, const ChargebackExplainQuery* query);

}  // namespace fleetcap::api

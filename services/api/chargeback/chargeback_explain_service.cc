#include "services/api/chargeback/chargeback_explain_service.h"

#include "common/status_macros.h"
#include "services/api/http_json.h"
#include "services/api/query_message.h"
#include "services/api/request_time.h"

namespace fleetcap::api {

grpc::Status ExplainChargebackCall(const GrpcGuard* guard, const ChargebackExplainQuery* query,
                                   grpc::ServerContext* context, const v1::ExplainChargebackRequest* request,
                                   v1::ChargebackExplanation* response) {
  return guard->Run(context, "/fleetcap.v1.ChargebackService/ExplainChargeback", *request, [&](const Scope& scope) {
    FLEETCAP_RETURN_IF_ERROR(query->Authorize(scope, *request));
    FLEETCAP_ASSIGN_OR_RETURN(auto result, query->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

absl::StatusOr<v1::ExplainChargebackRequest> ExplainRequestFromQuery(const HttpQuery& query) {
  v1::ExplainChargebackRequest request;
  // The hour is read here: required, with its own hint.
  QueryMapping mapping;
  mapping.explicit_parameters = {"hour"};
  mapping.route_fields = {"hour"};
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request, mapping));
  const std::string* hour = QueryValue(query, "hour");
  if (hour == nullptr || hour->empty()) return absl::InvalidArgumentError("hour: missing; give an RFC 3339 whole hour");
  FLEETCAP_ASSIGN_OR_RETURN(*request.mutable_hour(), ParseRequestTime("hour", *hour));
  return request;
}

void AddChargebackExplainRoutes(HttpGateway& gateway, const ChargebackExplainQuery* query) {
  gateway.AddRoute("GET", "/v1/chargeback/explain",
                   [query](const Scope& scope, const HttpQuery& params, const std::string&) {
                     auto request = ExplainRequestFromQuery(params);
                     if (!request.ok()) return ErrorResponse(request.status());
                     if (auto allowed = query->Authorize(scope, *request); !allowed.ok()) return ErrorResponse(allowed);
                     auto explanation = query->Run(scope, *request);
                     if (!explanation.ok()) return ErrorResponse(explanation.status());
                     return JsonResponse(*explanation);
                   });
}

}  // namespace fleetcap::api

#include "services/api/chargeback_http_routes.h"

namespace fleetcap::api {

void AddChargebackRoutes(HttpGateway& gateway, const ChargebackQuery* query) {
  gateway.AddRoute(
      "GET", "/v1/chargeback",
      [query](const Scope& scope, const HttpQuery& params, const std::string&) {
        if (auto status = OnlyKnownParameters(params, {"start", "end", "group_by", "resolution", "team", "cluster",
                                                       "namespace", "workload", "model", "line_kind"});
            !status.ok()) {
          return ErrorResponse(status);
        }
        auto request = ChargebackRequestFromQuery(params);
        if (!request.ok()) return ErrorResponse(request.status());
        auto report = query->Run(scope, *request);
        if (!report.ok()) {
          HttpResponse response = ErrorResponse(report.status());
          // Too many lines: the answer, not the server, is too large.
          if (absl::IsResourceExhausted(report.status())) response.status = 413;
          return response;
        }
        return JsonResponse(*report);
      },
      {"group_by"});
}

}  // namespace fleetcap::api

#include "services/api/chargeback_http_routes.h"

#include "absl/strings/str_cat.h"
#include "services/ctl/chargeback_format.h"

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
  gateway.AddRoute(
      "GET", "/v1/chargeback/export",
      [query](const Scope& scope, const HttpQuery& params, const std::string&) {
        if (auto status = OnlyKnownParameters(params, {"format", "start", "end", "group_by", "resolution", "team",
                                                       "cluster", "namespace", "workload", "model", "line_kind"});
            !status.ok()) {
          return ErrorResponse(status);
        }
        const std::string* format = QueryValue(params, "format");
        if (format == nullptr || (*format != "csv" && *format != "focus")) {
          return ErrorResponse(absl::InvalidArgumentError(
              format == nullptr ? "format: missing; give csv or focus"
                                : absl::StrCat("format: \"", format->substr(0, 64), "\" is not csv or focus")));
        }
        auto request = ChargebackRequestFromQuery(params);
        if (!request.ok()) return ErrorResponse(request.status());
        auto report = query->Run(scope, *request);
        if (!report.ok()) {
          HttpResponse response = ErrorResponse(report.status());
          if (absl::IsResourceExhausted(report.status())) response.status = 413;
          return response;
        }
        // The same rendering as `fleetcapctl chargeback --format csv|focus`.
        HttpResponse response;
        response.body = ctl::RenderChargeback(
            *request, *report, *format == "csv" ? ctl::ChargebackFormat::kCsv : ctl::ChargebackFormat::kFocus);
        response.content_type = "text/csv; charset=utf-8";
        return response;
      },
      {"group_by"});
}

}  // namespace fleetcap::api

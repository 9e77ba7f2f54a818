#include "services/api/fleet/fleet_http_routes.h"

#include "absl/strings/str_cat.h"
#include "services/exports/assets_format.h"

namespace fleetcap::api {

void AddFleetRoutes(HttpGateway& gateway, const FleetSummaryQuery* query, const CapacitySeriesQuery* capacity,
                    const AssetsQuery* assets, const DeviceHoldsQuery* device_holds,
                    const PendingDemandQuery* pending) {
  gateway.AddRoute("GET", "/v1/fleet/summary",
                   [query](const Scope& scope, const HttpQuery& params, const std::string&) {
                     auto request = FleetSummaryRequestFromQuery(params);
                     if (!request.ok()) return ErrorResponse(request.status());
                     auto summary = query->Run(scope, *request);
                     if (!summary.ok()) return ErrorResponse(summary.status());
                     return JsonResponse(*summary);
                   });
  gateway.AddRoute(
      "GET", "/v1/fleet/capacity",
      [capacity](const Scope& scope, const HttpQuery& params, const std::string&) {
        auto request = CapacitySeriesRequestFromQuery(params);
        if (!request.ok()) return ErrorResponse(request.status());
        auto series = capacity->Run(scope, *request);
        if (!series.ok()) return ErrorResponse(series.status());
        return JsonResponse(*series);
      },
      QueryListParameters(*v1::GetCapacitySeriesRequest::descriptor()));
  gateway.AddRoute("GET", "/v1/fleet/assets",
                   [assets](const Scope& scope, const HttpQuery& params, const std::string&) {
                     auto request = AssetsRequestFromQuery(params);
                     if (!request.ok()) return ErrorResponse(request.status());
                     auto answer = assets->Run(scope, *request);
                     if (!answer.ok()) return ErrorResponse(answer.status());
                     return JsonResponse(*answer);
                   });
  gateway.AddRoute("GET", "/v1/fleet/assets/export",
                   [assets](const Scope& scope, const HttpQuery& params, const std::string&) {
                     QueryMapping mapping;
                     mapping.explicit_parameters = {"format"};
                     auto request = AssetsRequestFromQuery(params, mapping);
                     if (!request.ok()) return ErrorResponse(request.status());
                     const std::string* format = QueryValue(params, "format");
                     if (format == nullptr || *format != "csv") {
                       return ErrorResponse(absl::InvalidArgumentError(
                           format == nullptr ? "format: missing; give csv"
                                             : absl::StrCat("format: \"", format->substr(0, 64), "\" is not csv")));
                     }
                     auto answer = assets->Run(scope, *request);
                     if (!answer.ok()) return ErrorResponse(answer.status());
                     // The same rendering as `fleetcapctl assets --format csv`.
                     HttpResponse response;
                     response.body = exports::AssetsCsv(*answer);
                     response.content_type = "text/csv; charset=utf-8";
                     return response;
                   });
  gateway.AddRoute("GET", "/v1/fleet/assets/holds",
                   [device_holds](const Scope& scope, const HttpQuery& params, const std::string&) {
                     auto request = DeviceHoldsRequestFromQuery(params);
                     if (!request.ok()) return ErrorResponse(request.status());
                     auto answer = device_holds->Run(scope, *request);
                     if (!answer.ok()) return ErrorResponse(answer.status());
                     return JsonResponse(*answer);
                   });
  gateway.AddRoute("GET", "/v1/fleet/pending",
                   [pending](const Scope& scope, const HttpQuery& params, const std::string&) {
                     auto request = PendingDemandRequestFromQuery(params);
                     if (!request.ok()) return ErrorResponse(request.status());
                     auto demand = pending->Run(scope, *request);
                     if (!demand.ok()) return ErrorResponse(demand.status());
                     return JsonResponse(*demand);
                   });
}

}  // namespace fleetcap::api

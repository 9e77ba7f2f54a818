#include "services/api/planning/scenario_http_routes.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

absl::Status WithinRange(const std::string& key, int64_t value, int64_t min, int64_t max) {
  if (value >= min && value <= max) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("query parameter ", key, ": expected a whole number from ", min, " to ", max));
}

}  // namespace

void AddScenarioRoutes(HttpGateway& gateway, const ScenarioOperations* scenarios) {
  gateway.AddRoute("POST", "/v1/scenarios/run",
                   [scenarios](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     auto request = RequestFromBody<v1::RunScenarioRequest>(q, body, kMaxScenarioRequestBytes);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(scenarios->Run(scope, *request));
                   });
  gateway.AddRoute("POST", "/v1/scenarios",
                   [scenarios](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     auto request = RequestFromBody<v1::SaveScenarioRequest>(q, body, kMaxScenarioRequestBytes);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(scenarios->Save(scope, *request));
                   });
  gateway.AddRoute("GET", "/v1/scenarios", [scenarios](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = RequestFromQuery<v1::ListScenariosRequest>(q);
    if (!request.ok()) return ErrorResponse(request.status());
    if (auto s = WithinRange("before_id", request->before_id(), 0, std::numeric_limits<int64_t>::max()); !s.ok()) {
      return ErrorResponse(s);
    }
    if (auto s = WithinRange("limit", request->limit(), 0, 1000); !s.ok()) return ErrorResponse(s);
    return Reply(scenarios->List(scope, *request));
  });
  gateway.AddRoute("GET", "/v1/scenarios/get", [scenarios](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = RequestFromQuery<v1::GetScenarioRequest>(q);
    if (!request.ok()) return ErrorResponse(request.status());
    if (QueryValue(q, "id") == nullptr) {
      return ErrorResponse(absl::InvalidArgumentError("query parameter id: missing (required)"));
    }
    if (auto s = WithinRange("id", request->id(), 1, std::numeric_limits<int64_t>::max()); !s.ok()) {
      return ErrorResponse(s);
    }
    return Reply(scenarios->Get(scope, *request));
  });
}

}  // namespace fleetcap::api

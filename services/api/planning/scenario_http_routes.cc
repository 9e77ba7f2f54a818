#include "services/api/planning/scenario_http_routes.h"

#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace fleetcap::api {
namespace {

template <typename Message>
absl::StatusOr<Message> FromBody(const std::string& body) {
  if (body.size() > kMaxScenarioRequestBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("request body: ", body.size(), " bytes, expected at most ", kMaxScenarioRequestBytes));
  }
  Message message;
  FLEETCAP_RETURN_IF_ERROR(ParseJsonBody(body, &message));
  return message;
}

template <typename Result>
HttpResponse Reply(const absl::StatusOr<Result>& result) {
  return result.ok() ? JsonResponse(*result) : ErrorResponse(result.status());
}

absl::StatusOr<int64_t> IntParameter(const HttpQuery& query, const std::string& key, int64_t min, int64_t max) {
  const std::string* text = QueryValue(query, key);
  if (text == nullptr) return 0;
  int64_t value = 0;
  if (!absl::SimpleAtoi(*text, &value) || value < min || value > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("query parameter ", key, ": expected a whole number from ", min, " to ", max));
  }
  return value;
}

}  // namespace

void AddScenarioRoutes(HttpGateway& gateway, const ScenarioOperations* scenarios) {
  gateway.AddRoute("POST", "/v1/scenarios/run",
                   [scenarios](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     if (auto s = OnlyKnownParameters(q, {}); !s.ok()) return ErrorResponse(s);
                     auto request = FromBody<v1::RunScenarioRequest>(body);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(scenarios->Run(scope, *request));
                   });
  gateway.AddRoute("POST", "/v1/scenarios",
                   [scenarios](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     if (auto s = OnlyKnownParameters(q, {}); !s.ok()) return ErrorResponse(s);
                     auto request = FromBody<v1::SaveScenarioRequest>(body);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(scenarios->Save(scope, *request));
                   });
  gateway.AddRoute("GET", "/v1/scenarios", [scenarios](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto s = OnlyKnownParameters(q, {"before_id", "limit"}); !s.ok()) return ErrorResponse(s);
    auto before = IntParameter(q, "before_id", 0, std::numeric_limits<int64_t>::max());
    if (!before.ok()) return ErrorResponse(before.status());
    auto limit = IntParameter(q, "limit", 0, 1000);
    if (!limit.ok()) return ErrorResponse(limit.status());
    v1::ListScenariosRequest request;
    request.set_before_id(*before);
    request.set_limit(static_cast<int32_t>(*limit));
    return Reply(scenarios->List(scope, request));
  });
  gateway.AddRoute("GET", "/v1/scenarios/get", [scenarios](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto s = OnlyKnownParameters(q, {"id"}); !s.ok()) return ErrorResponse(s);
    auto id = IntParameter(q, "id", 1, std::numeric_limits<int64_t>::max());
    if (!id.ok()) return ErrorResponse(id.status());
    if (QueryValue(q, "id") == nullptr) {
      return ErrorResponse(absl::InvalidArgumentError("query parameter id: missing (required)"));
    }
    v1::GetScenarioRequest request;
    request.set_id(*id);
    return Reply(scenarios->Get(scope, request));
  });
}

}  // namespace fleetcap::api

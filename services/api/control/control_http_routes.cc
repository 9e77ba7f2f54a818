#include "services/api/control/control_http_routes.h"

#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

// An optional integer query parameter within [min, max]; absent is `fallback`.
// Checked here, so a value too large for the request field is refused rather than truncated.
absl::StatusOr<int64_t> IntParameter(const HttpQuery& query, const std::string& key, int64_t fallback,
                                     int64_t min = std::numeric_limits<int64_t>::min(),
                                     int64_t max = std::numeric_limits<int64_t>::max()) {
  const std::string* text = QueryValue(query, key);
  if (text == nullptr) return fallback;
  int64_t value = 0;
  if (!absl::SimpleAtoi(*text, &value)) {
    return absl::InvalidArgumentError(absl::StrCat("query parameter ", key, ": expected a whole number"));
  }
  if (value < min || value > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("query parameter ", key, ": ", value, " is outside ", min, "..", max));
  }
  return value;
}

absl::Status AtLeast(const std::string& key, int64_t value, int64_t min, int64_t max) {
  if (value >= min) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("query parameter ", key, ": ", value, " is outside ", min, "..", max));
}

}  // namespace

void AddControlRoutes(HttpGateway& gateway, const PolicyOperations* policy, const TokenOperations* tokens,
                      const AuditOperations* audit) {
  gateway.AddRoute("GET", "/v1/policy", [policy](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = RequestFromQuery<v1::GetPolicyRequest>(q);
    if (!request.ok()) return ErrorResponse(request.status());
    if (auto status = AtLeast("version", request->version(), 0, std::numeric_limits<int32_t>::max()); !status.ok()) {
      return ErrorResponse(status);
    }
    return Reply(policy->Get(scope, *request));
  });
  gateway.AddRoute("POST", "/v1/policy", [policy](const Scope& scope, const HttpQuery& q, const std::string& body) {
    auto request = RequestFromBody<v1::ApplyPolicyRequest>(q, body);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(policy->Apply(scope, *request));
  });
  gateway.AddRoute("GET", "/v1/policy/history", [policy](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto request = RequestFromQuery<v1::ListPolicyVersionsRequest>(q); !request.ok()) {
      return ErrorResponse(request.status());
    }
    return Reply(policy->History(scope));
  });
  gateway.AddRoute("POST", "/v1/policy/rollback",
                   [policy](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     auto request = RequestFromBody<v1::RollbackPolicyRequest>(q, body);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(policy->Rollback(scope, *request));
                   });
  gateway.AddRoute("GET", "/v1/policy/team", [policy](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = RequestFromQuery<v1::GetTeamRequest>(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(policy->GetTeam(scope, *request));
  });

  gateway.AddRoute("GET", "/v1/tokens", [tokens](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto request = RequestFromQuery<v1::ListTokensRequest>(q); !request.ok())
      return ErrorResponse(request.status());
    return Reply(tokens->List(scope));
  });
  gateway.AddRoute("POST", "/v1/tokens", [tokens](const Scope& scope, const HttpQuery& q, const std::string& body) {
    auto request = RequestFromBody<v1::CreateTokenRequest>(q, body);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(tokens->Create(scope, *request));
  });
  gateway.AddRoute("POST", "/v1/tokens/revoke",
                   [tokens](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     auto request = RequestFromBody<v1::RevokeTokenRequest>(q, body);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(tokens->Revoke(scope, *request));
                   });
  gateway.AddRoute("GET", "/v1/tokens/self", [](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto request = RequestFromQuery<v1::WhoAmIRequest>(q); !request.ok()) return ErrorResponse(request.status());
    return JsonResponse(TokenOperations::WhoAmI(scope));
  });

  gateway.AddRoute("GET", "/v1/audit", [audit](const Scope& scope, const HttpQuery& q, const std::string&) {
    // The limit is read here: any whole number, clamped to the field's -1..1000.
    QueryMapping mapping;
    mapping.explicit_parameters = {"limit"};
    mapping.route_fields = {"limit"};
    auto request = RequestFromQuery<v1::ListAuditEventsRequest>(q, mapping);
    if (!request.ok()) return ErrorResponse(request.status());
    if (auto status = AtLeast("after_id", request->after_id(), 0, std::numeric_limits<int64_t>::max()); !status.ok()) {
      return ErrorResponse(status);
    }
    auto limit = IntParameter(q, "limit", 0);
    if (!limit.ok()) return ErrorResponse(limit.status());
    request->set_limit(static_cast<int32_t>(std::clamp<int64_t>(*limit, -1, 1000)));
    return Reply(audit->List(scope, *request));
  });
}

}  // namespace fleetcap::api

#include "services/api/control/control_http_routes.h"

#include <limits>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"

namespace fleetcap::api {
namespace {

template <typename Message>
absl::StatusOr<Message> FromJsonBody(const std::string& body) {
  Message message;
  FLEETCAP_RETURN_IF_ERROR(ParseJsonBody(body, &message));
  return message;
}

template <typename Result>
HttpResponse Reply(const absl::StatusOr<Result>& result) {
  return result.ok() ? JsonResponse(*result) : ErrorResponse(result.status());
}

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

}  // namespace

void AddControlRoutes(HttpGateway& gateway, const PolicyOperations* policy, const TokenOperations* tokens,
                      const AuditOperations* audit) {
  gateway.AddRoute("GET", "/v1/policy", [policy](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto status = OnlyKnownParameters(q, {"version"}); !status.ok()) return ErrorResponse(status);
    auto version = IntParameter(q, "version", 0, 0, std::numeric_limits<int32_t>::max());
    if (!version.ok()) return ErrorResponse(version.status());
    v1::GetPolicyRequest request;
    request.set_version(static_cast<int32_t>(*version));
    return Reply(policy->Get(scope, request));
  });
  gateway.AddRoute("POST", "/v1/policy", [policy](const Scope& scope, const HttpQuery& q, const std::string& body) {
    if (auto status = OnlyKnownParameters(q, {}); !status.ok()) return ErrorResponse(status);
    auto request = FromJsonBody<v1::ApplyPolicyRequest>(body);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(policy->Apply(scope, *request));
  });
  gateway.AddRoute("GET", "/v1/policy/history", [policy](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto status = OnlyKnownParameters(q, {}); !status.ok()) return ErrorResponse(status);
    return Reply(policy->History(scope));
  });
  gateway.AddRoute("POST", "/v1/policy/rollback",
                   [policy](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     if (auto status = OnlyKnownParameters(q, {}); !status.ok()) return ErrorResponse(status);
                     auto request = FromJsonBody<v1::RollbackPolicyRequest>(body);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(policy->Rollback(scope, *request));
                   });
  gateway.AddRoute("GET", "/v1/policy/team", [policy](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto status = OnlyKnownParameters(q, {"team"}); !status.ok()) return ErrorResponse(status);
    v1::GetTeamRequest request;
    if (const std::string* team = QueryValue(q, "team")) request.set_team(*team);
    return Reply(policy->GetTeam(scope, request));
  });

  gateway.AddRoute("GET", "/v1/tokens", [tokens](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto status = OnlyKnownParameters(q, {}); !status.ok()) return ErrorResponse(status);
    return Reply(tokens->List(scope));
  });
  gateway.AddRoute("POST", "/v1/tokens", [tokens](const Scope& scope, const HttpQuery& q, const std::string& body) {
    if (auto status = OnlyKnownParameters(q, {}); !status.ok()) return ErrorResponse(status);
    auto request = FromJsonBody<v1::CreateTokenRequest>(body);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(tokens->Create(scope, *request));
  });
  gateway.AddRoute("POST", "/v1/tokens/revoke",
                   [tokens](const Scope& scope, const HttpQuery& q, const std::string& body) {
                     if (auto status = OnlyKnownParameters(q, {}); !status.ok()) return ErrorResponse(status);
                     auto request = FromJsonBody<v1::RevokeTokenRequest>(body);
                     if (!request.ok()) return ErrorResponse(request.status());
                     return Reply(tokens->Revoke(scope, *request));
                   });
  gateway.AddRoute("GET", "/v1/tokens/self", [](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto status = OnlyKnownParameters(q, {}); !status.ok()) return ErrorResponse(status);
    return JsonResponse(TokenOperations::WhoAmI(scope));
  });

  gateway.AddRoute("GET", "/v1/audit", [audit](const Scope& scope, const HttpQuery& q, const std::string&) {
    if (auto status = OnlyKnownParameters(q, {"after_id", "limit", "action"}); !status.ok())
      return ErrorResponse(status);
    auto after = IntParameter(q, "after_id", 0, 0);
    if (!after.ok()) return ErrorResponse(after.status());
    auto limit = IntParameter(q, "limit", 0);
    if (!limit.ok()) return ErrorResponse(limit.status());
    v1::ListAuditEventsRequest request;
    request.set_after_id(*after);
    request.set_limit(static_cast<int32_t>(std::clamp<int64_t>(*limit, -1, 1000)));
    if (const std::string* action = QueryValue(q, "action")) request.set_action(*action);
    return Reply(audit->List(scope, request));
  });
}

}  // namespace fleetcap::api

#include "services/api/control/token_operations.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "nlohmann/json.hpp"
#include "policy/text_rules.h"
#include "proto_time.h"
#include "services/api/token_secret.h"

namespace fleetcap::api {
namespace {

v1::TokenInfo ToProto(const store::TokenRecord& t) {
  v1::TokenInfo info;
  info.set_token_id(t.token_id);
  info.set_role(t.role);
  info.set_description(t.description);
  *info.mutable_created_at() = ToProtoTimestamp(t.created_at);
  *info.mutable_expires_at() = ToProtoTimestamp(t.expires_at);
  if (t.revoked_at) *info.mutable_revoked_at() = ToProtoTimestamp(*t.revoked_at);
  info.set_created_by(t.created_by);
  return info;
}

}  // namespace

absl::StatusOr<v1::CreateTokenResponse> CreateToken(store::TokenRepository* tokens, const Clock& clock,
                                                    const std::string& actor, const std::string& role,
                                                    const std::string& description, absl::Duration ttl) {
  FLEETCAP_RETURN_IF_ERROR(CheckRole("role", role));
  FLEETCAP_RETURN_IF_ERROR(policy::CheckFreeText("description", description, 256, false));
  if (ttl <= absl::ZeroDuration() || ttl > absl::Hours(24 * 3660)) {
    return absl::InvalidArgumentError("ttl_seconds: expected from 1 second to 10 years");
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto secret, GenerateTokenSecret());
  store::TokenRecord record;
  record.token_id = secret.token_id;
  record.secret_hash = secret.hash;
  record.role = role;
  record.description = description;
  record.created_at = clock.Now();
  record.expires_at = record.created_at + ttl;
  record.created_by = actor;
  nlohmann::json details = {
      {"role", role},
      {"description", description},
      {"expires_at", absl::FormatTime(absl::RFC3339_sec, record.expires_at, absl::UTCTimeZone())}};
  store::AuditEntry audit{0, record.created_at, actor, "token.create", "token " + record.token_id, details.dump()};
  FLEETCAP_RETURN_IF_ERROR(tokens->Create(record, audit));
  v1::CreateTokenResponse response;
  *response.mutable_token() = ToProto(record);
  response.set_secret(secret.secret);
  return response;
}

absl::StatusOr<v1::CreateTokenResponse> TokenOperations::Create(const Scope& scope,
                                                                const v1::CreateTokenRequest& request) const {
  if (request.ttl_seconds() < 0) return absl::InvalidArgumentError("ttl_seconds: expected 0 (90 days) or more");
  const absl::Duration ttl = request.ttl_seconds() == 0 ? kDefaultTokenTtl : absl::Seconds(request.ttl_seconds());
  return CreateToken(tokens_, *clock_, scope.actor(), request.role(), request.description(), ttl);
}

absl::StatusOr<v1::ListTokensResponse> TokenOperations::List(const Scope& /*scope*/) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto tokens, tokens_->List());
  v1::ListTokensResponse response;
  for (const auto& t : tokens) *response.add_tokens() = ToProto(t);
  return response;
}

absl::StatusOr<v1::TokenInfo> TokenOperations::Revoke(const Scope& scope, const v1::RevokeTokenRequest& request) const {
  if (!policy::IsName(request.token_id())) return absl::InvalidArgumentError("token_id: expected a token id");
  const absl::Time now = clock_->Now();
  store::AuditEntry audit{0, now, scope.actor(), "token.revoke", "token " + request.token_id(), "{}"};
  FLEETCAP_ASSIGN_OR_RETURN(auto revoked, tokens_->Revoke(request.token_id(), now, audit));
  return ToProto(revoked);
}

v1::WhoAmIResponse TokenOperations::WhoAmI(const Scope& scope) {
  v1::WhoAmIResponse response;
  response.set_token_id(scope.token_id);
  response.set_role(scope.role_name());
  for (const auto& t : scope.teams) response.add_teams(t);
  return response;
}

absl::StatusOr<v1::ListAuditEventsResponse> AuditOperations::List(const Scope& /*scope*/,
                                                                  const v1::ListAuditEventsRequest& request) const {
  if (request.limit() < 0 || request.after_id() < 0) {
    return absl::InvalidArgumentError("limit, after_id: expected 0 or more");
  }
  if (!request.action().empty() && !policy::IsName(request.action())) {
    return absl::InvalidArgumentError("action: expected an action name such as policy.apply");
  }
  const int limit = request.limit() == 0 ? 100 : std::min(request.limit(), 1000);
  FLEETCAP_ASSIGN_OR_RETURN(auto events, audit_->List(request.after_id(), limit, request.action()));
  v1::ListAuditEventsResponse response;
  for (const auto& e : events) {
    v1::AuditEvent* out = response.add_events();
    out->set_id(e.id);
    *out->mutable_at() = ToProtoTimestamp(e.at);
    out->set_actor(e.actor);
    out->set_action(e.action);
    out->set_target(e.target);
    out->set_details_json(e.details_json);
  }
  return response;
}

}  // namespace fleetcap::api

#include "services/api/auth.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "policy/policy_timeline.h"
#include "policy/text_rules.h"
#include "services/api/token_secret.h"

namespace fleetcap::api {

std::string Scope::role_name() const {
  switch (role) {
    case Role::kAdmin:
      return "admin";
    case Role::kPlanner:
      return "planner";
    case Role::kScheduler:
      return "scheduler";
    case Role::kTeam:
      return "team:" + team;
  }
  return "";
}

bool Scope::Covers(const std::string& team_name) const {
  if (role == Role::kAdmin || role == Role::kPlanner) return true;
  if (role != Role::kTeam) return false;
  return std::find(teams.begin(), teams.end(), team_name) != teams.end();
}

absl::Status CheckRole(absl::string_view field, absl::string_view role) {
  if (role == "admin" || role == "planner" || role == "scheduler") return absl::OkStatus();
  if (absl::StartsWith(role, "team:") && policy::IsName(role.substr(5))) return absl::OkStatus();
  const std::string shown = role.size() > 80 ? absl::StrCat(role.size(), " bytes") : absl::StrCat("\"", role, "\"");
  return absl::InvalidArgumentError(
      absl::StrCat(field, ": ", shown, " is not a role (expected admin, planner, scheduler or team:<team name>)"));
}

absl::Status OutOfScope(absl::string_view what) {
  return absl::PermissionDeniedError(absl::StrCat(what, ": outside the scope of this token"));
}

absl::StatusOr<std::shared_ptr<const ActivePolicy>> PolicyOf(const Scope& scope, const ActivePolicyCache* policies) {
  if (scope.policy != nullptr) return scope.policy;
  return policies->Get();
}

int32_t PolicyVersionOf(const Scope& scope) {
  return scope.policy != nullptr ? scope.policy->version : policy::PolicyTimeline::kEveryVersion;
}

absl::StatusOr<Scope> Authenticator::Authenticate(absl::string_view authorization) const {
  if (authorization.empty()) {
    return absl::UnauthenticatedError("missing bearer token (send \"authorization: Bearer <token>\")");
  }
  constexpr absl::string_view kPrefix = "Bearer ";
  if (!absl::StartsWith(authorization, kPrefix) || authorization.size() > 512) {
    return absl::UnauthenticatedError("malformed authorization (expected \"Bearer <token>\")");
  }
  const absl::string_view secret = authorization.substr(kPrefix.size());
  auto token = tokens_->FindByHash(HashTokenSecret(secret));
  if (absl::IsNotFound(token.status())) return absl::UnauthenticatedError("unknown bearer token");
  if (!token.ok()) return token.status();
  const absl::Time now = clock_->Now();
  if (token->revoked_at && *token->revoked_at <= now) {
    return absl::UnauthenticatedError(absl::StrCat("token ", token->token_id, " was revoked"));
  }
  if (token->expires_at <= now) return absl::UnauthenticatedError(absl::StrCat("token ", token->token_id, " expired"));

  Scope scope;
  scope.token_id = token->token_id;
  // Read once: the request is authorised and answered under this version.
  FLEETCAP_ASSIGN_OR_RETURN(scope.policy, policies_->Get());
  if (token->role == "admin") {
    scope.role = Role::kAdmin;
  } else if (token->role == "planner") {
    scope.role = Role::kPlanner;
  } else if (token->role == "scheduler") {
    scope.role = Role::kScheduler;
  } else if (absl::StartsWith(token->role, "team:")) {
    scope.role = Role::kTeam;
    scope.team = token->role.substr(5);
    scope.teams = {scope.team};
    // The subtree comes from the active policy; without one a team sees only itself.
    if (scope.policy->valid) {
      auto subtree = policy::Subtree(scope.policy->document, scope.team);
      if (!subtree.empty()) scope.teams = std::move(subtree);
    }
  } else {
    return absl::UnauthenticatedError(absl::StrCat("token ", token->token_id, " has an unknown role"));
  }
  return scope;
}

absl::Status Authenticator::Authorize(const Scope& scope, Access access, absl::string_view what) {
  bool allowed = false;
  switch (access) {
    case Access::kAdmin:
      allowed = scope.role == Role::kAdmin;
      break;
    case Access::kRead:
      allowed = scope.role == Role::kAdmin || scope.role == Role::kPlanner;
      break;
    case Access::kTeamRead:
      allowed = scope.role != Role::kScheduler;
      break;
    case Access::kRecommendations:
    case Access::kAnyCaller:
      allowed = true;
      break;
  }
  if (allowed) return absl::OkStatus();
  return absl::PermissionDeniedError(absl::StrCat(what, ": not allowed for role ", scope.role_name()));
}

}  // namespace fleetcap::api

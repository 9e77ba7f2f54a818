#pragma once
// Who is calling and what they may do. Both transports authenticate and
// authorise here, before any handler runs, and hand the handler only the
// caller's Scope:
//   gRPC: every method body runs inside GrpcGuard::Run (grpc_guard.h);
//   HTTP: HttpGateway::Handle checks before dispatching to a route.
// Which role may call what is one table, access_table.h.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/clock.h"
#include "services/api/active_policy_cache.h"
#include "store/control_repositories.h"

namespace fleetcap::api {

enum class Role { kAdmin, kPlanner, kScheduler, kTeam };

// What a caller may reach.
enum class Access {
  kAdmin,            // admin only
  kRead,             // admin and planner: the whole fleet, read-only
  kTeamRead,         // admin, planner, and team tokens within their subtree (checked by the handler via Scope)
  kRecommendations,  // admin, planner, scheduler, and team tokens within their subtree
  kAnyCaller,        // any valid token
};

struct Scope {
  std::string token_id;
  Role role = Role::kPlanner;
  std::string team;                // kTeam: the token's team
  std::vector<std::string> teams;  // kTeam: the team and those below it in the active policy
  // The active policy the caller was authorised under, read once when it was
  // authenticated: the answer reads whatever it needs of the active policy
  // (org tree, currency, the version teams are resolved up to) from here, so a
  // version applied while the request runs changes neither. Null in a scope
  // made in process; PolicyOf then reads the cache.
  std::shared_ptr<const ActivePolicy> policy = nullptr;

  std::string actor() const { return "token:" + token_id; }
  std::string role_name() const;
  // Whether this caller may read `team`'s data.
  bool Covers(const std::string& team_name) const;
};

// The active policy a request of `scope` is answered under: the one it was
// authorised under, or the cache's when the scope carries none.
absl::StatusOr<std::shared_ptr<const ActivePolicy>> PolicyOf(const Scope& scope, const ActivePolicyCache* policies);

// The highest policy version whose team resolution a request of `scope` may
// see: the one it was authorised under, or every version when it carries none.
int32_t PolicyVersionOf(const Scope& scope);

// "admin", "planner", "scheduler" or "team:<name>"; anything else is INVALID_ARGUMENT naming `field`.
absl::Status CheckRole(absl::string_view field, absl::string_view role);

// The message a caller outside its scope gets, identical whether or not the
// thing it asked for exists.
absl::Status OutOfScope(absl::string_view what);

class Authenticator {
 public:
  // All must outlive the authenticator. `policies` is the process's cache of
  // the active policy, shared with the queries.
  Authenticator(store::TokenRepository* tokens, const ActivePolicyCache* policies, const Clock* clock)
      : tokens_(tokens), policies_(policies), clock_(clock) {}
  // With a cache of its own over `policies`.
  Authenticator(store::TokenRepository* tokens, store::PolicyRepository* policies, const Clock* clock)
      : tokens_(tokens),
        owned_policies_(std::make_unique<ActivePolicyCache>(policies)),
        policies_(owned_policies_.get()),
        clock_(clock) {}

  // From the value of an "authorization" header/metadata ("Bearer <secret>").
  // UNAUTHENTICATED when missing, malformed, unknown, expired or revoked;
  // the message never repeats the secret.
  absl::StatusOr<Scope> Authenticate(absl::string_view authorization) const;

  // PERMISSION_DENIED unless `scope` may use something guarded by `access`.
  static absl::Status Authorize(const Scope& scope, Access access, absl::string_view what);

 private:
  store::TokenRepository* tokens_;
  std::unique_ptr<ActivePolicyCache> owned_policies_;
  const ActivePolicyCache* policies_;  // a team's subtree comes from the active policy's org tree
  const Clock* clock_;
};

}  // namespace fleetcap::api

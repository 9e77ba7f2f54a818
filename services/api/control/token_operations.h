#pragma once
// What TokenService and AuditService do, independent of transport. Token
// secrets are generated here, returned once, and never logged or stored.

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "fleetcap/v1/audit.pb.h"
#include "fleetcap/v1/token.pb.h"
#include "services/api/auth.h"
#include "store/control_repositories.h"

namespace fleetcap::api {

inline constexpr absl::Duration kDefaultTokenTtl = absl::Hours(24 * 90);

// Creates a token with `role` for `ttl`, audited as done by `actor`
// ("token:<id>", or "init" for the bootstrap token).
absl::StatusOr<v1::CreateTokenResponse> CreateToken(store::TokenRepository* tokens, const Clock& clock,
                                                    const std::string& actor, const std::string& role,
                                                    const std::string& description, absl::Duration ttl);

class TokenOperations {
 public:
  TokenOperations(store::TokenRepository* tokens, const Clock* clock) : tokens_(tokens), clock_(clock) {}

  absl::StatusOr<v1::CreateTokenResponse> Create(const Scope& scope, const v1::CreateTokenRequest& request) const;
  absl::StatusOr<v1::ListTokensResponse> List(const Scope& scope) const;
  absl::StatusOr<v1::TokenInfo> Revoke(const Scope& scope, const v1::RevokeTokenRequest& request) const;
  static v1::WhoAmIResponse WhoAmI(const Scope& scope);

 private:
  store::TokenRepository* tokens_;
  const Clock* clock_;
};

class AuditOperations {
 public:
  explicit AuditOperations(store::AuditRepository* audit) : audit_(audit) {}
  absl::StatusOr<v1::ListAuditEventsResponse> List(const Scope& scope, const v1::ListAuditEventsRequest& request) const;

 private:
  store::AuditRepository* audit_;
};

}  // namespace fleetcap::api

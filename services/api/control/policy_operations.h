#pragma once
// What PolicyService does, independent of transport: validate, diff, apply
// with the optimistic version check, roll back, and read. Every change is
// audited (who, when, the message and the list of changes) in the same
// transaction as the change itself.

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "fleetcap/v1/policy.pb.h"
#include "services/api/auth.h"
#include "store/control_repositories.h"

namespace fleetcap::api {

class PolicyOperations {
 public:
  PolicyOperations(store::PolicyRepository* policies, const Clock* clock) : policies_(policies), clock_(clock) {}

  absl::StatusOr<v1::PolicyVersion> Get(const Scope& scope, const v1::GetPolicyRequest& request) const;
  absl::StatusOr<v1::ListPolicyVersionsResponse> History(const Scope& scope) const;
  absl::StatusOr<v1::ApplyPolicyResponse> Apply(const Scope& scope, const v1::ApplyPolicyRequest& request) const;
  absl::StatusOr<v1::ApplyPolicyResponse> Rollback(const Scope& scope, const v1::RollbackPolicyRequest& request) const;
  absl::StatusOr<v1::PolicyTeam> GetTeam(const Scope& scope, const v1::GetTeamRequest& request) const;

 private:
  absl::StatusOr<v1::ApplyPolicyResponse> Store(const Scope& scope, const std::string& document,
                                                const std::string& message, std::optional<int32_t> base_version,
                                                bool dry_run, const std::string& action) const;
  store::PolicyRepository* policies_;
  const Clock* clock_;
};

}  // namespace fleetcap::api

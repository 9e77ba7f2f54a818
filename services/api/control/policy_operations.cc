#include "services/api/control/policy_operations.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status_macros.h"
#include "nlohmann/json.hpp"
#include "policy/policy_diff.h"
#include "policy/policy_parser.h"
#include "policy/text_rules.h"
#include "proto_time.h"

namespace fleetcap::api {
namespace {

v1::PolicyVersion ToProto(const store::PolicyVersionRecord& r, bool with_document) {
  v1::PolicyVersion p;
  p.set_version(r.version);
  if (with_document) p.set_document(r.document);
  *p.mutable_applied_at() = ToProtoTimestamp(r.applied_at);
  p.set_applied_by(r.applied_by);
  p.set_message(r.message);
  p.set_base_version(r.base_version.value_or(0));
  return p;
}

// The active policy parsed, or an empty one when none was applied.
absl::StatusOr<std::pair<int32_t, policy::PolicyDocument>> ActiveDocument(store::PolicyRepository* policies) {
  auto active = policies->Active();
  if (absl::IsNotFound(active.status())) return std::make_pair(0, policy::PolicyDocument{});
  if (!active.ok()) return active.status();
  policy::ParsedPolicy parsed = policy::ParsePolicy(active->document);
  if (!parsed.ok()) {
    return absl::InternalError(absl::StrCat("stored policy version ", active->version,
                                            " no longer validates: ", policy::FormatPolicyError("", parsed.errors[0])));
  }
  return std::make_pair(active->version, std::move(parsed.document));
}

}  // namespace

absl::StatusOr<v1::PolicyVersion> PolicyOperations::Get(const Scope& /*scope*/,
                                                        const v1::GetPolicyRequest& request) const {
  if (request.version() < 0) return absl::InvalidArgumentError("version: expected 0 (active) or a version number");
  FLEETCAP_ASSIGN_OR_RETURN(auto record,
                            request.version() == 0 ? policies_->Active() : policies_->Get(request.version()));
  return ToProto(record, true);
}

absl::StatusOr<v1::ListPolicyVersionsResponse> PolicyOperations::History(const Scope& /*scope*/) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto history, policies_->History());
  v1::ListPolicyVersionsResponse response;
  for (const auto& r : history) *response.add_versions() = ToProto(r, false);
  return response;
}

absl::StatusOr<v1::ApplyPolicyResponse> PolicyOperations::Apply(const Scope& scope,
                                                                const v1::ApplyPolicyRequest& request) const {
  if (request.has_base_version() && request.base_version() < 0) {
    return absl::InvalidArgumentError("base_version: expected 0 (no policy yet) or a version number");
  }
  return Store(scope, request.document(), request.message(),
               request.has_base_version() ? std::optional<int32_t>(request.base_version()) : std::nullopt,
               request.dry_run(), "policy.apply");
}

absl::StatusOr<v1::ApplyPolicyResponse> PolicyOperations::Rollback(const Scope& scope,
                                                                   const v1::RollbackPolicyRequest& request) const {
  if (request.version() <= 0) return absl::InvalidArgumentError("version: expected a version number (1 or more)");
  FLEETCAP_ASSIGN_OR_RETURN(auto target, policies_->Get(request.version()));
  FLEETCAP_ASSIGN_OR_RETURN(auto active, policies_->Active());
  const std::string message =
      request.message().empty() ? absl::StrCat("rollback to version ", request.version()) : request.message();
  return Store(scope, target.document, message, active.version, false, "policy.rollback");
}

absl::StatusOr<v1::ApplyPolicyResponse> PolicyOperations::Store(const Scope& scope, const std::string& document,
                                                                const std::string& message,
                                                                std::optional<int32_t> base_version, bool dry_run,
                                                                const std::string& action) const {
  FLEETCAP_RETURN_IF_ERROR(policy::CheckFreeText("message", message, 4096, true));
  policy::ParsedPolicy parsed = policy::ParsePolicy(document);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("policy does not validate:\n", policy::FormatPolicyErrors("document", parsed.errors)));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto active, ActiveDocument(policies_));
  if (base_version && *base_version != active.first) {
    return absl::FailedPreconditionError(absl::StrCat("the policy changed since version ", *base_version,
                                                      ": the active version is ", active.first,
                                                      "; review the new diff and apply again"));
  }
  v1::ApplyPolicyResponse response;
  const std::vector<std::string> changes = policy::DiffPolicies(active.second, parsed.document);
  for (const auto& c : changes) response.add_changes(c);
  if (dry_run) return response;

  store::PolicyVersionRecord record;
  record.document = document;
  record.applied_at = clock_->Now();
  record.applied_by = scope.actor();
  record.message = message;
  nlohmann::json details = {{"message", message}, {"changes", changes}};
  store::AuditEntry audit{0, record.applied_at, scope.actor(), action, "", details.dump()};
  // The repository re-checks the base inside its transaction: this is what stops a racing apply.
  FLEETCAP_ASSIGN_OR_RETURN(auto stored, policies_->Apply(record, base_version.value_or(active.first), audit));
  *response.mutable_policy() = ToProto(stored, true);
  return response;
}

absl::StatusOr<v1::PolicyTeam> PolicyOperations::GetTeam(const Scope& scope, const v1::GetTeamRequest& request) const {
  // Scope first: a team token learns nothing about names outside its subtree, not even whether they exist.
  if (!scope.Covers(request.team())) return OutOfScope("team");
  if (!policy::IsName(request.team())) return absl::InvalidArgumentError("team: expected a team name");
  FLEETCAP_ASSIGN_OR_RETURN(auto active, ActiveDocument(policies_));
  const policy::PolicyDocument& doc = active.second;
  v1::PolicyTeam out;
  for (const auto& t : doc.teams) {
    if (t.name != request.team()) continue;
    out.set_name(t.name);
    out.set_parent(t.parent);
    out.set_kind(t.kind);
    out.set_weight(t.weight);
    out.set_cost_centre(t.cost_centre);
  }
  if (out.name().empty())
    return absl::NotFoundError(absl::StrCat("team \"", request.team(), "\" is not in the policy"));
  const std::vector<std::string> subtree = policy::Subtree(doc, request.team());
  for (const auto& t : subtree) out.add_subtree(t);
  for (const auto& n : doc.namespaces) {
    if (std::find(subtree.begin(), subtree.end(), n.team) == subtree.end()) continue;
    out.add_namespaces(absl::StrCat(n.cluster, "/", n.namespace_name.empty() ? n.pattern : n.namespace_name));
  }
  out.set_policy_version(active.first);
  return out;
}

}  // namespace fleetcap::api

#include "store/memory_control_repositories.h"

#include "absl/strings/str_cat.h"

namespace fleetcap::store {

absl::StatusOr<std::vector<AuditEntry>> MemoryAuditRepository::List(int64_t after_id, int limit,
                                                                    const std::string& action) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<AuditEntry> out;
  for (const auto& e : entries_) {
    if (e.id <= after_id || (!action.empty() && e.action != action)) continue;
    if (static_cast<int>(out.size()) >= limit) break;
    out.push_back(e);
  }
  return out;
}

void MemoryAuditRepository::Append(AuditEntry entry) {
  std::lock_guard<std::mutex> lock(mu_);
  entry.id = static_cast<int64_t>(entries_.size()) + 1;
  entries_.push_back(std::move(entry));
}

absl::StatusOr<PolicyVersionRecord> MemoryPolicyRepository::Active() {
  std::lock_guard<std::mutex> lock(mu_);
  if (versions_.empty()) return absl::NotFoundError("no policy has been applied yet");
  return versions_.back();
}

absl::StatusOr<int32_t> MemoryPolicyRepository::ActiveVersion() {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int32_t>(versions_.size());
}

absl::StatusOr<PolicyVersionRecord> MemoryPolicyRepository::Get(int32_t version) {
  std::lock_guard<std::mutex> lock(mu_);
  if (version < 1 || static_cast<size_t>(version) > versions_.size()) {
    return absl::NotFoundError(absl::StrCat("policy version ", version, " does not exist"));
  }
  return versions_[static_cast<size_t>(version) - 1];
}

absl::StatusOr<std::vector<PolicyVersionRecord>> MemoryPolicyRepository::History() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::vector<PolicyVersionRecord>(versions_.rbegin(), versions_.rend());
}

absl::StatusOr<PolicyVersionRecord> MemoryPolicyRepository::Apply(PolicyVersionRecord record,
                                                                  std::optional<int32_t> base_version,
                                                                  AuditEntry audit) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto active = static_cast<int32_t>(versions_.size());
  if (base_version && *base_version != active) {
    return absl::FailedPreconditionError(absl::StrCat("the policy changed since version ", *base_version,
                                                      ": the active version is ", active,
                                                      "; review the new diff and apply again"));
  }
  record.version = active + 1;
  record.base_version = active == 0 ? std::nullopt : std::optional<int32_t>(active);
  versions_.push_back(record);
  audit.target = absl::StrCat("policy version ", record.version);
  audit_->Append(std::move(audit));
  return record;
}

absl::Status MemoryTokenRepository::Create(const TokenRecord& token, AuditEntry audit) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& t : tokens_) {
    if (t.token_id == token.token_id || t.secret_hash == token.secret_hash) {
      return absl::AlreadyExistsError(absl::StrCat("token ", token.token_id, " already exists"));
    }
  }
  tokens_.push_back(token);
  audit_->Append(std::move(audit));
  return absl::OkStatus();
}

absl::StatusOr<TokenRecord> MemoryTokenRepository::FindByHash(const std::string& secret_hash) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& t : tokens_) {
    if (t.secret_hash == secret_hash) return t;
  }
  return absl::NotFoundError("no such token");
}

absl::StatusOr<std::vector<TokenRecord>> MemoryTokenRepository::List() {
  std::lock_guard<std::mutex> lock(mu_);
  return tokens_;
}

absl::StatusOr<TokenRecord> MemoryTokenRepository::Revoke(const std::string& token_id, absl::Time at,
                                                          AuditEntry audit) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& t : tokens_) {
    if (t.token_id != token_id) continue;
    if (!t.revoked_at) t.revoked_at = at;
    audit_->Append(std::move(audit));
    return t;
  }
  return absl::NotFoundError(absl::StrCat("token \"", token_id, "\" does not exist"));
}

}  // namespace fleetcap::store

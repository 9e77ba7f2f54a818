#pragma once
// The control plane's repositories on PostgreSQL (tables policies,
// api_tokens, audit_log). Thread-safe: each call leases its own connection.

#include "common/pg_pool.h"
#include "store/control_repositories.h"

namespace fleetcap::store {

class PgPolicyRepository : public PolicyRepository {
 public:
  explicit PgPolicyRepository(PgPool* pool) : pool_(pool) {}
  absl::StatusOr<PolicyVersionRecord> Active() override;
  absl::StatusOr<int32_t> ActiveVersion() override;
  absl::StatusOr<PolicyVersionRecord> Get(int32_t version) override;
  absl::StatusOr<std::vector<PolicyVersionRecord>> History() override;
  absl::StatusOr<PolicyVersionRecord> Apply(PolicyVersionRecord record, std::optional<int32_t> base_version,
                                            AuditEntry audit) override;

 private:
  absl::StatusOr<PolicyVersionRecord> One(const std::string& where, std::optional<int32_t> version);
  PgPool* pool_;
};

class PgTokenRepository : public TokenRepository {
 public:
  explicit PgTokenRepository(PgPool* pool) : pool_(pool) {}
  absl::Status Create(const TokenRecord& token, AuditEntry audit) override;
  absl::StatusOr<TokenRecord> FindByHash(const std::string& secret_hash) override;
  absl::StatusOr<std::vector<TokenRecord>> List() override;
  absl::StatusOr<TokenRecord> Revoke(const std::string& token_id, absl::Time at, AuditEntry audit) override;

 private:
  PgPool* pool_;
};

class PgAuditRepository : public AuditRepository {
 public:
  explicit PgAuditRepository(PgPool* pool) : pool_(pool) {}
  absl::StatusOr<std::vector<AuditEntry>> List(int64_t after_id, int limit, const std::string& action) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

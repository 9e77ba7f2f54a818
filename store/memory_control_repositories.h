#pragma once
// In-memory fakes of the control plane's repositories for unit tests: the
// same contracts as the PostgreSQL ones, behind one mutex. The policy and
// token fakes append their audit entries to a shared MemoryAuditRepository.

#include <map>
#include <mutex>
#include <vector>

#include "store/control_repositories.h"

namespace fleetcap::store {

class MemoryAuditRepository : public AuditRepository {
 public:
  absl::StatusOr<std::vector<AuditEntry>> List(int64_t after_id, int limit, const std::string& action) override;
  void Append(AuditEntry entry);

 private:
  std::mutex mu_;
  std::vector<AuditEntry> entries_;
};

class MemoryPolicyRepository : public PolicyRepository {
 public:
  explicit MemoryPolicyRepository(MemoryAuditRepository* audit) : audit_(audit) {}
  absl::StatusOr<PolicyVersionRecord> Active() override;
  absl::StatusOr<int32_t> ActiveVersion() override;
  absl::StatusOr<PolicyVersionRecord> Get(int32_t version) override;
  absl::StatusOr<std::vector<PolicyVersionRecord>> History() override;
  absl::StatusOr<PolicyVersionRecord> Apply(PolicyVersionRecord record, std::optional<int32_t> base_version,
                                            AuditEntry audit) override;

 private:
  MemoryAuditRepository* audit_;
  std::mutex mu_;
  std::vector<PolicyVersionRecord> versions_;  // index = version - 1
};

class MemoryTokenRepository : public TokenRepository {
 public:
  explicit MemoryTokenRepository(MemoryAuditRepository* audit) : audit_(audit) {}
  absl::Status Create(const TokenRecord& token, AuditEntry audit) override;
  absl::StatusOr<TokenRecord> FindByHash(const std::string& secret_hash) override;
  absl::StatusOr<std::vector<TokenRecord>> List() override;
  absl::StatusOr<TokenRecord> Revoke(const std::string& token_id, absl::Time at, AuditEntry audit) override;

 private:
  MemoryAuditRepository* audit_;
  std::mutex mu_;
  std::vector<TokenRecord> tokens_;
};

}  // namespace fleetcap::store

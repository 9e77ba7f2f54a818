#pragma once
// Interfaces over the control plane's records. Every write that changes
// policy or tokens takes the AuditEntry that records it and stores both in
// one transaction: no change without its audit line, no audit line without
// its change. Implementations are thread-safe.

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "store/control_records.h"

namespace fleetcap::store {

class PolicyRepository {
 public:
  virtual ~PolicyRepository() = default;

  // The highest version; NOT_FOUND when no policy was ever applied.
  virtual absl::StatusOr<PolicyVersionRecord> Active() = 0;
  // The highest version without its document (cheap enough for every request); 0 when none was applied.
  virtual absl::StatusOr<int32_t> ActiveVersion() = 0;
  // NOT_FOUND for an unknown version.
  virtual absl::StatusOr<PolicyVersionRecord> Get(int32_t version) = 0;
  // Every version, newest first.
  virtual absl::StatusOr<std::vector<PolicyVersionRecord>> History() = 0;
  // Stores `record` as version (active + 1), only if the active version is
  // still `base_version` (0: no policy yet; nullopt: whatever is active).
  // A stale base, or losing a race to another apply, is FAILED_PRECONDITION.
  // `record.version`, `applied_at` and `base_version` are filled in.
  virtual absl::StatusOr<PolicyVersionRecord> Apply(PolicyVersionRecord record, std::optional<int32_t> base_version,
                                                    AuditEntry audit) = 0;
};

class TokenRepository {
 public:
  virtual ~TokenRepository() = default;

  // ALREADY_EXISTS if the id or hash is taken.
  virtual absl::Status Create(const TokenRecord& token, AuditEntry audit) = 0;
  // NOT_FOUND when no token has this hash (expired and revoked ones are returned: the caller decides).
  virtual absl::StatusOr<TokenRecord> FindByHash(const std::string& secret_hash) = 0;
  // Every token, oldest first.
  virtual absl::StatusOr<std::vector<TokenRecord>> List() = 0;
  // Marks the token revoked at `at` (once: revoking again keeps the first time).
  // NOT_FOUND for an unknown id.
  virtual absl::StatusOr<TokenRecord> Revoke(const std::string& token_id, absl::Time at, AuditEntry audit) = 0;
};

class AuditRepository {
 public:
  virtual ~AuditRepository() = default;

  // Entries with id > after_id, oldest first, at most `limit`; `action`
  // filters when non-empty.
  virtual absl::StatusOr<std::vector<AuditEntry>> List(int64_t after_id, int limit, const std::string& action) = 0;
};

}  // namespace fleetcap::store

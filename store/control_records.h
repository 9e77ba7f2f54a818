#pragma once
// The control plane's records: policy versions, API tokens and audit
// entries. Only fleetcap-api writes them (DESIGN.md: "it writes only policy,
// tokens and the audit log").

#include <cstdint>
#include <optional>
#include <string>

#include "absl/time/time.h"

namespace fleetcap::store {

// One line of the audit log: who did what to which target, and the details
// (a JSON object, e.g. the policy diff). Never holds a token secret.
struct AuditEntry {
  int64_t id = 0;  // assigned by the store
  absl::Time at;
  std::string actor;   // "token:<id>" or "init"
  std::string action;  // "policy.apply", "policy.rollback", "token.create", "token.revoke"
  std::string target;
  std::string details_json = "{}";
};

struct PolicyVersionRecord {
  int32_t version = 0;
  std::string document;  // the YAML exactly as applied
  absl::Time applied_at;
  std::string applied_by;
  std::string message;
  std::optional<int32_t> base_version;
};

struct TokenRecord {
  std::string token_id;     // public identifier, shown in lists and logs
  std::string secret_hash;  // SHA-256 of the secret, 32 raw bytes; the secret itself is never stored
  std::string role;         // admin, planner, scheduler or team:<name>
  std::string description;
  absl::Time created_at;
  absl::Time expires_at;
  std::optional<absl::Time> revoked_at;
  std::string created_by;
};

}  // namespace fleetcap::store

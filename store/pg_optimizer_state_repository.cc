#include "store/pg_optimizer_state_repository.h"

#include "common/status_macros.h"
#include "pqxx/pqxx"

namespace fleetcap::store {

absl::StatusOr<int32_t> PgOptimizerStateRepository::LastPolicyVersion() {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    const pqxx::result rows = txn.exec("SELECT last_policy_version FROM optimizer_state");
    txn.commit();
    return rows.empty() ? 0 : rows[0][0].as<int32_t>();
  } catch (const std::exception& e) {
    return PgError("optimizer state: reading the last policy version", e);
  }
}

absl::Status PgOptimizerStateRepository::SeenPolicyVersion(int32_t version) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec_params(
        "INSERT INTO optimizer_state (last_policy_version) VALUES ($1) ON CONFLICT (id)"
        " DO UPDATE SET last_policy_version = excluded.last_policy_version, updated_at = now()",
        version);
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("optimizer state: remembering the last policy version", e);
  }
}

}  // namespace fleetcap::store

#include "store/session_lock.h"

#include "pqxx/nontransaction"

namespace fleetcap::store {

absl::Status HoldSessionLock(pqxx::connection& conn, const std::string& name, const std::string& context) {
  try {
    pqxx::nontransaction txn(conn);
    txn.exec_params("SELECT pg_advisory_lock(hashtext($1))", name);
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError(context, e);
  }
}

}  // namespace fleetcap::store

#include "store/session_lock.h"

#include "absl/strings/str_cat.h"
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

absl::StatusOr<bool> TrySessionLock(pqxx::connection& conn, const std::string& name, const std::string& context) {
  try {
    pqxx::nontransaction txn(conn);
    return txn.exec_params1("SELECT pg_try_advisory_lock(hashtext($1))", name)[0].as<bool>();
  } catch (const std::exception& e) {
    return PgError(context, e);
  }
}

absl::Status ReleaseSessionLock(pqxx::connection& conn, const std::string& name, const std::string& context) {
  try {
    pqxx::nontransaction txn(conn);
    if (!txn.exec_params1("SELECT pg_advisory_unlock(hashtext($1))", name)[0].as<bool>()) {
      return absl::FailedPreconditionError(absl::StrCat(context, ": this session does not hold the lock ", name));
    }
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError(context, e);
  }
}

}  // namespace fleetcap::store

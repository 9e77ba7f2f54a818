#include "tests/support/pg_sessions.h"

#include "absl/strings/str_cat.h"

namespace fleetcap::testing {

void LockAdvisory(pqxx::connection& conn, const std::string& name) {
  pqxx::nontransaction(conn).exec_params("SELECT pg_advisory_lock(hashtext($1))", name);
}

void UnlockAdvisory(pqxx::connection& conn, const std::string& name) {
  pqxx::nontransaction(conn).exec_params("SELECT pg_advisory_unlock(hashtext($1))", name);
}

int64_t SessionsWaitingOnAdvisoryLock(pqxx::connection& conn, const std::string& query_part) {
  return pqxx::nontransaction(conn)
      .exec_params1(
          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
          " AND wait_event = 'advisory' AND query LIKE '%' || $1 || '%'",
          query_part)[0]
      .as<int64_t>();
}

bool IsInRecovery(pqxx::connection& conn) {
  return pqxx::nontransaction(conn).exec1("SELECT pg_is_in_recovery()")[0].as<bool>();
}

int64_t SessionsOfApplication(pqxx::connection& conn, const std::string& application, const std::string& database) {
  return pqxx::nontransaction(conn)
      .exec_params1("SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND datname = $2", application,
                    database)[0]
      .as<int64_t>();
}

void TerminateOtherSessions(pqxx::connection& conn) {
  pqxx::nontransaction(conn).exec(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
      " WHERE datname = current_database() AND pid <> pg_backend_pid()");
}

void LockTableExclusively(pqxx::transaction_base& txn, const std::string& table) {
  txn.exec(absl::StrCat("LOCK TABLE ", txn.quote_name(table), " IN ACCESS EXCLUSIVE MODE"));
}

}  // namespace fleetcap::testing

#pragma once
// What tests do to the database's sessions rather than its rows: hold the
// advisory lock a writer takes (to stop it at that point), see who waits on
// one, and cut every other session off (the store going away under a pool).

#include <string>

#include "pqxx/pqxx"

namespace fleetcap::testing {

// Takes (and, below, releases) the session advisory lock the store names
// `name` (its key is hashtext(name)), e.g. "fleetcap.chargeback:c1".
void LockAdvisory(pqxx::connection& conn, const std::string& name);
void UnlockAdvisory(pqxx::connection& conn, const std::string& name);

// The sessions of this database waiting on an advisory lock whose query
// contains `query_part`.
int64_t SessionsWaitingOnAdvisoryLock(pqxx::connection& conn, const std::string& query_part);

// Whether the server `conn` is on is a standby replaying the primary's log.
bool IsInRecovery(pqxx::connection& conn);

// The sessions of database `database` whose application_name is `application`.
int64_t SessionsOfApplication(pqxx::connection& conn, const std::string& application, const std::string& database);

// Ends every other session of this database, as a database restart would.
void TerminateOtherSessions(pqxx::connection& conn);

// Takes an ACCESS EXCLUSIVE lock on `table` in `txn`, held until it ends.
void LockTableExclusively(pqxx::transaction_base& txn, const std::string& table);

}  // namespace fleetcap::testing

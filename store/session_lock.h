#pragma once
// A session-scoped PostgreSQL advisory lock: one process at a time does what
// it guards, and PostgreSQL releases the lock when the session ends, however
// the process ends.

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/pg_pool.h"

namespace fleetcap::store {

// Waits for the advisory lock named `name` and holds it for the rest of
// `conn`'s session. An error names `context` (what the caller waits for).
absl::Status HoldSessionLock(pqxx::connection& conn, const std::string& name, const std::string& context);

// Takes the advisory lock named `name` for the rest of `conn`'s session if
// no other session holds it, without waiting: whether it was taken.
absl::StatusOr<bool> TrySessionLock(pqxx::connection& conn, const std::string& name, const std::string& context);

// Releases the advisory lock named `name` that `conn`'s session holds
// (FAILED_PRECONDITION if it holds none), so that another session may take it.
absl::Status ReleaseSessionLock(pqxx::connection& conn, const std::string& name, const std::string& context);

}  // namespace fleetcap::store

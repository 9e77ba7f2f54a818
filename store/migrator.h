#pragma once
// Applies the schema's migrations to a database, in order, each in its own
// transaction, recording version, name and checksum in schema_migrations.
// A PostgreSQL advisory lock serialises migrators, so processes that start
// together apply each migration exactly once.
//
// Refusals, all FAILED_PRECONDITION with a message naming the migration:
// a migration whose SQL changed after it was applied (checksum mismatch), and
// a database that has migrations this build does not know (newer schema).

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pqxx/connection"
#include "store/migrations.h"

namespace fleetcap::store {

struct SchemaState {
  std::vector<std::string> applied;  // names, in order
  std::vector<std::string> pending;  // known to this build, not yet applied
};

class Migrator {
 public:
  explicit Migrator(std::vector<Migration> migrations = BuiltinMigrations());

  // Reads what is applied and checks it against this build.
  absl::StatusOr<SchemaState> Inspect(pqxx::connection& conn) const;

  // Applies what is pending; returns the names applied by this call.
  absl::StatusOr<std::vector<std::string>> Apply(pqxx::connection& conn) const;

  // What a daemon does at start: with `migrate`, Apply; without, succeed only
  // if nothing is pending, else FAILED_PRECONDITION listing what is missing.
  absl::Status EnsureCurrent(pqxx::connection& conn, bool migrate) const;

 private:
  std::vector<Migration> migrations_;
};

// A daemon's schema check at start (common/daemon.h): EnsureCurrent with this
// build's migrations.
absl::Status CheckSchema(pqxx::connection& conn, bool migrate);

}  // namespace fleetcap::store

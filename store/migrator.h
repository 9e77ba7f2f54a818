#pragma once
// Applies the schema's migrations to a database, in order, each in its own
// transaction, recording version, name and checksum in schema_migrations.
// Then the repeatable functions (store/functions/, migrations.h): each one
// never applied, or whose text changed since it was, is applied in its own
// transaction and recorded by name and checksum in schema_repeatables; one
// unchanged is left alone. A PostgreSQL advisory lock serialises migrators, so
// processes that start together apply each migration exactly once.
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
  // Repeatable functions never applied, or applied with other text.
  std::vector<std::string> stale_functions;
};

// What one Apply did.
struct AppliedSchema {
  std::vector<std::string> migrations;  // names, in order
  std::vector<std::string> functions;   // repeatables (re)applied, by name
};

class Migrator {
 public:
  // This build's migrations and repeatable functions.
  Migrator();
  // The given migrations and repeatables (tests).
  explicit Migrator(std::vector<Migration> migrations, std::vector<Repeatable> repeatables = {});

  // Reads what is applied and checks it against this build.
  absl::StatusOr<SchemaState> Inspect(pqxx::connection& conn) const;

  // Applies what is pending, then the stale repeatables; returns the names of
  // the migrations applied by this call.
  absl::StatusOr<std::vector<std::string>> Apply(pqxx::connection& conn) const;

  // Apply, saying which repeatables it applied too.
  absl::StatusOr<AppliedSchema> ApplySchema(pqxx::connection& conn) const;

  // What a daemon does at start: with `migrate`, Apply; without, succeed only
  // if nothing is pending or stale, else FAILED_PRECONDITION listing what is
  // missing.
  absl::Status EnsureCurrent(pqxx::connection& conn, bool migrate) const;

 private:
  std::vector<Migration> migrations_;
  std::vector<Repeatable> repeatables_;
};

// A daemon's schema check at start (common/daemon.h): EnsureCurrent with this
// build's migrations.
absl::Status CheckSchema(pqxx::connection& conn, bool migrate);

}  // namespace fleetcap::store

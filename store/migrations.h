#pragma once
// The schema as an ordered list of migrations, embedded at build time from
// store/migrations/NNNN_name.sql, and the repeatable functions, embedded from
// store/functions/NAME.sql.

#include <string>
#include <vector>

namespace fleetcap::store {

struct Migration {
  int version;       // NNNN
  std::string name;  // "NNNN_name"
  std::string sql;
};

// A function, with the triggers that run it, defined by one file that is
// applied after the numbered migrations and again whenever its text changes
// (CREATE OR REPLACE). Its file is the one definition in force: a function is
// changed by editing it, never by a new migration.
struct Repeatable {
  std::string name;  // the function it defines, "fleetcap_..."
  std::string sql;
};

// This build's migrations, ordered by version.
const std::vector<Migration>& BuiltinMigrations();

// This build's repeatable functions, ordered by name.
const std::vector<Repeatable>& BuiltinRepeatables();

// Hex SHA-256 of the migration's SQL, recorded when it is applied.
std::string MigrationChecksum(const Migration& migration);

// Hex SHA-256 of the repeatable's SQL, recorded when it is applied.
std::string RepeatableChecksum(const Repeatable& repeatable);

}  // namespace fleetcap::store

#pragma once
// The schema as an ordered list of migrations, embedded at build time from
// store/migrations/NNNN_name.sql.

#include <string>
#include <vector>

namespace fleetcap::store {

struct Migration {
  int version;       // NNNN
  std::string name;  // "NNNN_name"
  std::string sql;
};

// This build's migrations, ordered by version.
const std::vector<Migration>& BuiltinMigrations();

// Hex SHA-256 of the migration's SQL, recorded when it is applied.
std::string MigrationChecksum(const Migration& migration);

}  // namespace fleetcap::store

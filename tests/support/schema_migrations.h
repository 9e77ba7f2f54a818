#pragma once
// The migrations a test's database records as applied (schema_migrations),
// for tests of how a program treats a schema older or newer than its own.

#include <string>
#include <vector>

#include "pqxx/pqxx"

namespace fleetcap::testing {

// The names of the applied migrations, oldest version first.
std::vector<std::string> AppliedMigrations(pqxx::connection& conn);

// Records a migration as applied that this build does not have (a newer
// schema's), as given.
void SeedAppliedMigration(pqxx::connection& conn, int version, const std::string& name, const std::string& checksum);

// Forgets the newest applied migration, as if the schema were one older;
// returns its name.
std::string ForgetNewestMigration(pqxx::connection& conn);

}  // namespace fleetcap::testing

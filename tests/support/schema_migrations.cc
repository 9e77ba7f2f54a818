#include "tests/support/schema_migrations.h"

namespace fleetcap::testing {

std::vector<std::string> AppliedMigrations(pqxx::connection& conn) {
  std::vector<std::string> out;
  for (const auto& r : pqxx::nontransaction(conn).exec("SELECT name FROM schema_migrations ORDER BY version")) {
    out.push_back(r[0].as<std::string>());
  }
  return out;
}

void SeedAppliedMigration(pqxx::connection& conn, int version, const std::string& name, const std::string& checksum) {
  pqxx::nontransaction(conn).exec_params("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                                         version, name, checksum);
}

std::string ForgetNewestMigration(pqxx::connection& conn) {
  return pqxx::nontransaction(conn)
      .exec1(
          "DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations) "
          "RETURNING name")[0]
      .as<std::string>();
}

}  // namespace fleetcap::testing

#include "tests/support/test_database.h"

#include <unistd.h>

#include <atomic>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"
#include "pqxx/pqxx"
#include "store/migrations.h"
#include "store/migrator.h"

namespace fleetcap::testing {
namespace {

absl::StatusOr<std::string> ServerUri() {
  const char* dir = std::getenv("FLEETCAP_TEST_PG_DIR");
  if (dir == nullptr) {
    return absl::FailedPreconditionError(
        "FLEETCAP_TEST_PG_DIR is not set: run integration tests through ctest, whose `pg` fixture starts PostgreSQL");
  }
  std::ifstream port_file(absl::StrCat(dir, "/port"));
  std::string port;
  if (!(port_file >> port)) {
    return absl::FailedPreconditionError(absl::StrCat("no PostgreSQL running in ", dir, " (scripts/pg.sh start)"));
  }
  return absl::StrCat("postgresql://fleetcap@127.0.0.1:", port, "/fleetcap");
}

std::string UriOf(const std::string& server_uri, const std::string& db) {
  return server_uri.substr(0, server_uri.rfind('/') + 1) + db;
}

std::string UniqueName(const char* prefix) {
  static std::atomic<int> counter{0};
  return absl::StrCat(prefix, "_", getpid(), "_", counter++);
}

// The template's name carries the schema's checksum, so a changed migration
// or function gets a new template instead of a stale one.
std::string TemplateName() {
  std::string digest;
  for (const auto& m : store::BuiltinMigrations()) digest += store::MigrationChecksum(m);
  for (const auto& r : store::BuiltinRepeatables()) digest += store::RepeatableChecksum(r);
  store::Migration all{0, "all", digest};
  return absl::StrCat("fleetcap_template_", store::MigrationChecksum(all).substr(0, 16));
}

absl::Status EnsureTemplate(const std::string& server_uri) {
  const std::string name = TemplateName();
  pqxx::connection admin(server_uri);
  pqxx::nontransaction txn(admin);
  // Serialise template creation across concurrently starting test binaries.
  txn.exec("SELECT pg_advisory_lock(4242)");
  bool exists = !txn.exec_params("SELECT 1 FROM pg_database WHERE datname = $1", name).empty();
  absl::Status status;
  if (!exists) {
    const std::string building = name + "_building";
    txn.exec(absl::StrCat("DROP DATABASE IF EXISTS ", building));
    txn.exec(absl::StrCat("CREATE DATABASE ", building));
    {
      pqxx::connection conn(UriOf(server_uri, building));
      auto applied = store::Migrator().Apply(conn);
      status = applied.status();
    }
    if (status.ok()) txn.exec(absl::StrCat("ALTER DATABASE ", building, " RENAME TO ", name));
  }
  txn.exec("SELECT pg_advisory_unlock(4242)");
  return status;
}

}  // namespace

TestDatabase::TestDatabase(std::string server_uri, std::string name)
    : server_uri_(std::move(server_uri)), name_(std::move(name)), uri_(UriOf(server_uri_, name_)) {}

absl::StatusOr<std::unique_ptr<TestDatabase>> TestDatabase::Empty() {
  FLEETCAP_ASSIGN_OR_RETURN(auto server, ServerUri());
  std::unique_ptr<TestDatabase> db(new TestDatabase(server, UniqueName("test")));
  try {
    pqxx::connection admin(server);
    pqxx::nontransaction(admin).exec(absl::StrCat("CREATE DATABASE ", db->name_));
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("creating test database: ", e.what()));
  }
  return db;
}

absl::StatusOr<std::unique_ptr<TestDatabase>> TestDatabase::Migrated() {
  FLEETCAP_ASSIGN_OR_RETURN(auto server, ServerUri());
  std::unique_ptr<TestDatabase> db(new TestDatabase(server, UniqueName("test")));
  try {
    FLEETCAP_RETURN_IF_ERROR(EnsureTemplate(server));
    pqxx::connection admin(server);
    pqxx::nontransaction(admin).exec(absl::StrCat("CREATE DATABASE ", db->name_, " TEMPLATE ", TemplateName()));
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("creating test database: ", e.what()));
  }
  return db;
}

std::unique_ptr<pqxx::connection> TestDatabase::Connect() const { return std::make_unique<pqxx::connection>(uri_); }

TestDatabase::~TestDatabase() {
  try {
    pqxx::connection admin(server_uri_);
    pqxx::nontransaction(admin).exec(absl::StrCat("DROP DATABASE IF EXISTS ", name_, " WITH (FORCE)"));
  } catch (const std::exception&) {
    // The server is going away with the fixture anyway.
  }
}

bool TestDatabase::SessionsWaitForALock(int n, absl::Duration timeout) const {
  auto conn = Connect();
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    pqxx::nontransaction txn(*conn);
    const auto waiting =
        txn.exec_params("SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", name_);
    if (waiting[0][0].as<int>() >= n) return true;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return false;
}

}  // namespace fleetcap::testing

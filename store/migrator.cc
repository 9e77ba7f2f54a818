#include "store/migrator.h"

#include <openssl/evp.h>

#include <algorithm>
#include <map>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/pg_pool.h"
#include "common/status_macros.h"
#include "pqxx/pqxx"

namespace fleetcap::store {
namespace {

// Arbitrary constant shared by every fleetcap migrator ("flee" in ASCII).
constexpr int64_t kMigrationLockKey = 0x666c6565;

constexpr const char* kCreateLedger = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
  version     integer PRIMARY KEY,
  name        text NOT NULL,
  checksum    text NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now()
))sql";

// The repeatable functions applied, each with the checksum of its text then.
constexpr const char* kCreateRepeatablesLedger = R"sql(
CREATE TABLE IF NOT EXISTS schema_repeatables (
  name        text PRIMARY KEY,
  checksum    text NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now()
))sql";

struct AppliedRow {
  std::string name;
  std::string checksum;
};

// Reads schema_migrations; an absent ledger means nothing was applied.
std::map<int, AppliedRow> ReadLedger(pqxx::connection& conn) {
  pqxx::nontransaction txn(conn);
  std::map<int, AppliedRow> applied;
  auto exists = txn.exec("SELECT to_regclass('schema_migrations') IS NOT NULL");
  if (!exists[0][0].as<bool>()) return applied;
  for (const auto& row : txn.exec("SELECT version, name, checksum FROM schema_migrations")) {
    applied[row[0].as<int>()] = AppliedRow{row[1].as<std::string>(), row[2].as<std::string>()};
  }
  return applied;
}

// Reads schema_repeatables by name; an absent ledger means none was applied.
std::map<std::string, std::string> ReadRepeatablesLedger(pqxx::connection& conn) {
  pqxx::nontransaction txn(conn);
  std::map<std::string, std::string> applied;
  auto exists = txn.exec("SELECT to_regclass('schema_repeatables') IS NOT NULL");
  if (!exists[0][0].as<bool>()) return applied;
  for (const auto& row : txn.exec("SELECT name, checksum FROM schema_repeatables")) {
    applied[row[0].as<std::string>()] = row[1].as<std::string>();
  }
  return applied;
}

std::string Sha256Hex(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest), length));
}

// Holds the migration advisory lock for its lifetime.
class MigrationLock {
 public:
  explicit MigrationLock(pqxx::connection& conn) : conn_(conn) {
    pqxx::nontransaction(conn_).exec(absl::StrCat("SELECT pg_advisory_lock(", kMigrationLockKey, ")"));
  }
  ~MigrationLock() {
    try {
      pqxx::nontransaction(conn_).exec(absl::StrCat("SELECT pg_advisory_unlock(", kMigrationLockKey, ")"));
    } catch (const std::exception&) {
      // The connection is gone, and with it the session's lock.
    }
  }
  MigrationLock(const MigrationLock&) = delete;
  MigrationLock& operator=(const MigrationLock&) = delete;

 private:
  pqxx::connection& conn_;
};

}  // namespace

std::string MigrationChecksum(const Migration& migration) { return Sha256Hex(migration.sql); }

std::string RepeatableChecksum(const Repeatable& repeatable) { return Sha256Hex(repeatable.sql); }

Migrator::Migrator() : Migrator(BuiltinMigrations(), BuiltinRepeatables()) {}

Migrator::Migrator(std::vector<Migration> migrations, std::vector<Repeatable> repeatables)
    : migrations_(std::move(migrations)), repeatables_(std::move(repeatables)) {
  std::sort(migrations_.begin(), migrations_.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  std::sort(repeatables_.begin(), repeatables_.end(),
            [](const Repeatable& a, const Repeatable& b) { return a.name < b.name; });
}

absl::StatusOr<SchemaState> Migrator::Inspect(pqxx::connection& conn) const {
  std::map<int, AppliedRow> applied;
  std::map<std::string, std::string> applied_repeatables;
  try {
    applied = ReadLedger(conn);
  } catch (const std::exception& e) {
    return PgError("reading schema_migrations", e);
  }
  try {
    applied_repeatables = ReadRepeatablesLedger(conn);
  } catch (const std::exception& e) {
    return PgError("reading schema_repeatables", e);
  }
  SchemaState state;
  std::map<int, const Migration*> known;
  for (const auto& m : migrations_) known[m.version] = &m;
  for (const auto& [version, row] : applied) {
    auto it = known.find(version);
    if (it == known.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat("the database schema is newer than this build: migration ", row.name,
                       " is applied there but unknown here; run a fleetcap build that has it"));
    }
    std::string expected = MigrationChecksum(*it->second);
    if (row.checksum != expected) {
      return absl::FailedPreconditionError(absl::StrCat(
          "migration ", row.name, " was changed after it was applied (checksum ", row.checksum, " in the database, ",
          expected, " in this build); restore the original file and add a new migration instead"));
    }
    state.applied.push_back(row.name);
  }
  for (const auto& m : migrations_) {
    if (applied.count(m.version) == 0) state.pending.push_back(m.name);
  }
  for (const auto& r : repeatables_) {
    auto it = applied_repeatables.find(r.name);
    if (it == applied_repeatables.end() || it->second != RepeatableChecksum(r)) {
      state.stale_functions.push_back(r.name);
    }
  }
  return state;
}

absl::StatusOr<std::vector<std::string>> Migrator::Apply(pqxx::connection& conn) const {
  FLEETCAP_ASSIGN_OR_RETURN(AppliedSchema applied, ApplySchema(conn));
  return std::move(applied.migrations);
}

absl::StatusOr<AppliedSchema> Migrator::ApplySchema(pqxx::connection& conn) const {
  AppliedSchema done;
  try {
    MigrationLock lock(conn);
    pqxx::nontransaction(conn).exec(kCreateLedger);
    pqxx::nontransaction(conn).exec(kCreateRepeatablesLedger);
    // Inspect under the lock: another process may have applied some meanwhile.
    FLEETCAP_ASSIGN_OR_RETURN(SchemaState state, Inspect(conn));
    for (const auto& m : migrations_) {
      if (std::find(state.pending.begin(), state.pending.end(), m.name) == state.pending.end()) {
        continue;
      }
      try {
        pqxx::work txn(conn);
        txn.exec(m.sql);
        txn.exec_params("INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)", m.version,
                        m.name, MigrationChecksum(m));
        txn.commit();
      } catch (const std::exception& e) {
        return absl::InternalError(absl::StrCat("migration ", m.name, " failed: ", e.what()));
      }
      done.migrations.push_back(m.name);
    }
    // After every migration, so a function may use any table, and each one
    // left is the one definition in force.
    for (const auto& r : repeatables_) {
      if (std::find(state.stale_functions.begin(), state.stale_functions.end(), r.name) ==
          state.stale_functions.end()) {
        continue;
      }
      try {
        pqxx::work txn(conn);
        txn.exec(r.sql);
        txn.exec_params(
            "INSERT INTO schema_repeatables (name, checksum) VALUES ($1, $2) "
            "ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now()",
            r.name, RepeatableChecksum(r));
        txn.commit();
      } catch (const std::exception& e) {
        return absl::InternalError(absl::StrCat("function ", r.name, " failed: ", e.what()));
      }
      done.functions.push_back(r.name);
    }
  } catch (const std::exception& e) {
    return PgError("applying migrations", e);
  }
  return done;
}

absl::Status Migrator::EnsureCurrent(pqxx::connection& conn, bool migrate) const {
  if (migrate) return Apply(conn).status();
  FLEETCAP_ASSIGN_OR_RETURN(SchemaState state, Inspect(conn));
  if (!state.pending.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the database schema is older than this build: missing migrations ",
                     absl::StrJoin(state.pending, ", "), "; start with --migrate to apply them"));
  }
  if (!state.stale_functions.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the database's functions are older than this build: not applied in this version ",
                     absl::StrJoin(state.stale_functions, ", "), "; start with --migrate to apply them"));
  }
  return absl::OkStatus();
}

absl::Status CheckSchema(pqxx::connection& conn, bool migrate) { return Migrator().EnsureCurrent(conn, migrate); }

}  // namespace fleetcap::store

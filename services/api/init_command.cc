#include "services/api/init_command.h"

#include "common/clock.h"
#include "common/pg_pool.h"
#include "services/api/token_operations.h"
#include "store/migrator.h"
#include "store/pg_control_repositories.h"
#include "store/session_lock.h"

namespace fleetcap::api {

int RunInit(const std::string& db, bool migrate, absl::Duration ttl, std::ostream& out, std::ostream& err) {
  if (db.empty()) {
    err << "fleetcap-api init: --db: empty; give a libpq URI or set FLEETCAP_DB\n";
    return 1;
  }
  auto conn = PgConnect(db);
  if (!conn.ok()) {
    err << "fleetcap-api init: " << conn.status().message() << "\n";
    return 1;
  }
  if (auto status = store::Migrator().EnsureCurrent(**conn, migrate); !status.ok()) {
    err << "fleetcap-api init: " << status.message() << "\n";
    return 1;
  }
  // Two inits at once must not both see "no admin yet" and both mint one: this
  // session holds an advisory lock from the check to the mint; PostgreSQL
  // releases it when the session ends, however init ends.
  if (auto status = store::HoldSessionLock(**conn, "fleetcap-api init", "waiting for another init"); !status.ok()) {
    err << "fleetcap-api init: " << status.message() << "\n";
    return 1;
  }
  auto pool = PgPool::Open(db, 1);
  if (!pool.ok()) {
    err << "fleetcap-api init: " << pool.status().message() << "\n";
    return 1;
  }
  store::PgTokenRepository tokens(pool->get());
  RealClock clock;
  auto existing = tokens.List();
  if (!existing.ok()) {
    err << "fleetcap-api init: " << existing.status().message() << "\n";
    return 1;
  }
  for (const auto& t : *existing) {
    if (t.role == "admin" && !t.revoked_at && t.expires_at > clock.Now()) {
      err << "fleetcap-api init: already initialised: admin token " << t.token_id
          << " is live; create more tokens with `fleetcapctl token create`\n";
      return 1;
    }
  }
  auto created = CreateToken(&tokens, clock, "init", "admin", "bootstrap admin token", ttl);
  if (!created.ok()) {
    err << "fleetcap-api init: " << created.status().message() << "\n";
    return 1;
  }
  err << "fleetcap-api init: created admin token " << created->token().token_id()
      << "; its secret is printed below, once: store it now\n";
  out << created->secret() << std::endl;
  return 0;
}

}  // namespace fleetcap::api

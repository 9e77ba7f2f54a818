#include "services/api/init_command.h"

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/daemon.h"
#include "common/pg_pool.h"
#include "common/status_macros.h"
#include "services/api/control/token_operations.h"
#include "store/migrator.h"
#include "store/pg_control_repositories.h"
#include "store/session_lock.h"

namespace fleetcap::api {

absl::Status RunInit(DaemonOptions daemon, absl::Duration ttl, std::ostream& out, std::ostream& err) {
  // One connection holds the lock below while the other mints; a one-shot
  // waits for another init as long as it takes and serves no /metrics.
  daemon.db_connections = 2;
  daemon.db_limits = {};
  daemon.metrics_listen.clear();
  FLEETCAP_ASSIGN_OR_RETURN(auto started, Daemon::Start(daemon, store::CheckSchema));
  // Two inits at once must not both see "no admin yet" and both mint one: this
  // session holds an advisory lock from the check to the mint; PostgreSQL
  // releases it when the session ends, however init ends.
  FLEETCAP_ASSIGN_OR_RETURN(PgPool::Lease lock, started->pool()->Acquire());
  FLEETCAP_RETURN_IF_ERROR(store::HoldSessionLock(*lock, "fleetcap-api init", "waiting for another init"));
  store::PgTokenRepository tokens(started->pool());
  RealClock clock;
  FLEETCAP_ASSIGN_OR_RETURN(auto existing, tokens.List());
  for (const auto& t : existing) {
    if (t.role == "admin" && !t.revoked_at && t.expires_at > clock.Now()) {
      return absl::FailedPreconditionError(
          absl::StrCat("already initialised: admin token ", t.token_id,
                       " is live; create more tokens with `fleetcapctl token create`"));
    }
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto created, CreateToken(&tokens, clock, "init", "admin", "bootstrap admin token", ttl));
  err << "fleetcap-api init: created admin token " << created.token().token_id()
      << "; its secret is printed below, once: store it now\n";
  out << created.secret() << std::endl;
  return absl::OkStatus();
}

}  // namespace fleetcap::api

#include "common/daemon_flags.h"

namespace fleetcap {

void DaemonFlags::Register(FlagSet& flags) {
  flags.String("db", &db, "PostgreSQL libpq URI", "FLEETCAP_DB");
  flags.Bool("migrate", &migrate, "apply pending schema migrations at start");
  flags.String("metrics-listen", &metrics_listen, "Prometheus /metrics HOST:PORT; empty for none");
  flags.String("log-level", &log_level, "trace, debug, info, warn, error, critical or off");
}

absl::Status DaemonFlags::RequireDb() const {
  if (db.empty()) return absl::InvalidArgumentError("--db: empty; give a libpq URI or set FLEETCAP_DB");
  return absl::OkStatus();
}

}  // namespace fleetcap

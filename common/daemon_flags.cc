#include "common/daemon_flags.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"

namespace fleetcap {

void DaemonFlags::Register(FlagSet& flags) {
  flags.String("db", &db, "PostgreSQL libpq URI", "FLEETCAP_DB");
  flags.Bool("migrate", &migrate, "apply pending schema migrations at start");
  flags.String("metrics-listen", &metrics_listen, "Prometheus /metrics HOST:PORT; empty for none");
  flags.String("log-level", &log_level, "trace, debug, info, warn, error, critical or off");
}

absl::StatusOr<bool> DaemonFlags::ParseCommand(FlagSet& flags, const std::vector<std::string>& args) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto parsed, flags.Parse(args));
  if (parsed.help) {
    std::cout << flags.Help();
    return false;
  }
  if (!parsed.positional.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("unexpected argument \"", parsed.positional[0], "\""));
  }
  FLEETCAP_RETURN_IF_ERROR(InitLogging(log_level));
  return true;
}

absl::Status DaemonFlags::RequireDb() const {
  if (db.empty()) return absl::InvalidArgumentError("--db: empty; give a libpq URI or set FLEETCAP_DB");
  return absl::OkStatus();
}

}  // namespace fleetcap

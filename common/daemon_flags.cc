#include "common/daemon_flags.h"

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"

namespace fleetcap {

void RegisterDaemonFlags(FlagSet& flags, DaemonOptions* options) {
  // A URI may carry a password.
  flags.Secret("db", &options->db, "PostgreSQL libpq URI", "FLEETCAP_DB");
  flags.Bool("migrate", &options->migrate, "apply pending schema migrations at start");
  flags.String("metrics-listen", &options->metrics_listen, "Prometheus /metrics HOST:PORT; empty for none");
  flags.String("log-level", &options->log_level, "trace, debug, info, warn, error, critical or off");
}

absl::Status ParseDaemonCommand(FlagSet& flags, const std::vector<std::string>& args, DaemonOptions* options) {
  FLEETCAP_ASSIGN_OR_RETURN(FlagSet::Parsed parsed, flags.Parse(args));
  if (parsed.help) {
    options->help = flags.Help();
    return absl::OkStatus();
  }
  if (!parsed.positional.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("unexpected argument \"", parsed.positional[0], "\""));
  }
  return CheckLogLevel(options->log_level);
}

absl::Status RequireDb(const DaemonOptions& options) {
  if (options.db.empty()) return absl::InvalidArgumentError("--db: empty; give a libpq URI or set FLEETCAP_DB");
  return absl::OkStatus();
}

}  // namespace fleetcap

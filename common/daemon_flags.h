#pragma once
// The flags every fleetcap daemon and command shares (DESIGN.md's user-facing
// contract): --db (env FLEETCAP_DB), --migrate, --metrics-listen, --log-level,
// and what each command's start-up needs besides them (common/daemon.h).

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/flags.h"
#include "common/pg_pool.h"

namespace fleetcap {

struct DaemonOptions {
  // The common flags.
  std::string db;
  bool migrate = false;
  std::string metrics_listen;
  std::string log_level = "info";

  // Set when --help was given: the command prints this and does nothing else.
  std::string help;

  // Set by each command, not by flags: the PostgreSQL connections it uses at
  // once and their limits, and whether SIGTERM and SIGINT ask it to stop
  // (false: they keep their default and end the process at once).
  int db_connections = 1;
  PgPoolOptions db_limits;
  bool stop_on_signal = true;
  // How long /readyz answers from its last look at the store (common/readiness.h).
  absl::Duration readiness_cache = absl::Seconds(5);
};

// Registers --db, --migrate, --metrics-listen and --log-level, bound to `options`.
void RegisterDaemonFlags(FlagSet& flags, DaemonOptions* options);

// What every command's parser does first, with no side effects: parses `args`
// against `flags` (on which the daemon flags are registered), keeps the help
// text in options->help on --help, and refuses positional arguments and an
// unknown --log-level.
absl::Status ParseDaemonCommand(FlagSet& flags, const std::vector<std::string>& args, DaemonOptions* options);

// INVALID_ARGUMENT naming --db when no database was given.
absl::Status RequireDb(const DaemonOptions& options);

}  // namespace fleetcap

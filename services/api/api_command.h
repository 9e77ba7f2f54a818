#pragma once
// fleetcap-api's command line: serve (the default) or `init`.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "services/api/api_server.h"

namespace fleetcap::api {

struct ApiOptions {
  DaemonOptions daemon;
  ApiServerOptions server;
  bool version = false;  // --version: print it and do nothing else
  bool init = false;     // `init`: mint the first admin token instead of serving
  // --db-read: a second libpq URI for the heavy reads (usage, chargeback),
  // e.g. a standby's; empty: they use --db.
  std::string db_read;
  absl::Duration init_ttl = absl::Hours(24 * 365);
};

// The options in `args` (without the program name), or INVALID_ARGUMENT
// naming the flag. Pure: `env` is the environment.
absl::StatusOr<ApiOptions> ParseApiFlags(const std::vector<std::string>& args, const Environment& env);

// Serves until SIGTERM or SIGINT.
absl::Status RunApi(const ApiOptions& options);

}  // namespace fleetcap::api

#pragma once
// `fleetcap-api init`: the bootstrap admin token of a new installation.
// Refuses when a live admin token already exists (create more with
// `fleetcapctl token create`). The secret goes to `out` alone on one line,
// once; what happened goes to `err`.

#include <ostream>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/daemon_flags.h"

namespace fleetcap::api {

// `daemon` gives the database and --migrate.
absl::Status RunInit(DaemonOptions daemon, absl::Duration ttl, std::ostream& out, std::ostream& err);

}  // namespace fleetcap::api

#pragma once
// `fleetcap-api init`: the bootstrap admin token of a new installation.
// Refuses when a live admin token already exists (create more with
// `fleetcapctl token create`). The secret goes to `out` alone on one line,
// once; what happened goes to `err`.

#include <ostream>
#include <string>

#include "absl/time/time.h"

namespace fleetcap::api {

// Returns the process exit code.
int RunInit(const std::string& db, bool migrate, absl::Duration ttl, std::ostream& out, std::ostream& err);

}  // namespace fleetcap::api

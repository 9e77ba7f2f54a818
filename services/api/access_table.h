#pragma once
// The one table of who may call what: every gRPC method (by full name,
// "/fleetcap.v1.FleetService/GetFleetSummary") and every HTTP route
// ("GET /v1/fleet/summary"), read from the `access` and `http` options each
// method carries in its .proto (proto/fleetcap/v1/access.proto). A method
// without an `access` option, and a route no method names, are admin-only,
// so a new RPC or route is closed until its .proto opens it. The
// authorisation test calls every entry with every role.

#include <map>
#include <string>

#include "services/api/auth.h"

namespace fleetcap::api {

const std::map<std::string, Access>& AccessTable();

// The entry for `key`, or Access::kAdmin.
Access AccessFor(const std::string& key);

}  // namespace fleetcap::api

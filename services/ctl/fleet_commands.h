#pragma once
// `fleetcapctl fleet ...`: requests built from flags, responses rendered for
// people (table) or programs (json).

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fleetcap/v1/fleet.grpc.pb.h"
#include "services/ctl/client.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> FleetCommands();

// The request for `fleet summary` at `now` (--at as time_flags.h reads it);
// a bad --at is INVALID_ARGUMENT naming it.
absl::StatusOr<v1::GetFleetSummaryRequest> FleetSummaryRequest(const std::string& cluster, const std::string& at,
                                                               absl::Time now);

std::string RenderFleetSummary(const v1::FleetSummary& summary, Format format);

}  // namespace fleetcap::ctl

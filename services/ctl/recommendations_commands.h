#pragma once
// `fleetcapctl recommendations [--team T] [--format table|json]`: the newest
// allocation run's quota per team and flavor (AllocationService).

#include <string>
#include <vector>

#include "fleetcap/v1/allocation.grpc.pb.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> RecommendationsCommands();

// The request for --team ("" for every team the token may read).
v1::GetRecommendationsRequest RecommendationsRequest(const std::string& team);

}  // namespace fleetcap::ctl

#pragma once
// `fleetcapctl forecast --flavor F [--team T] [--horizon 90d] [--what held|pending]
// [--format table|json|csv]`: one series of the newest forecast run
// (PlanningService.GetForecast).

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fleetcap/v1/planning.grpc.pb.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> ForecastCommands();

// The request for the flags; INVALID_ARGUMENT naming the flag (--flavor
// missing, --horizon not whole hours or days up to 90 days).
absl::StatusOr<v1::GetForecastRequest> ForecastRequest(const std::string& flavor, const std::string& team,
                                                       const std::string& horizon, const std::string& what);

}  // namespace fleetcap::ctl

#pragma once
// `fleetcapctl insights waste`: devices held idle over a window, in device
// time and money, per workload and team, and each team's efficiency, as a
// table, CSV or the API's proto3 JSON (waste_format.h, docs/insights.md).

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> InsightsWasteCommands();

// The flags of `insights waste` as given.
struct WasteFlags {
  std::string from, to, last;  // time_flags.h
  std::string team, namespace_, cluster;
  int64_t limit = 0;
};

// The request `insights waste` sends at `now`: the window from --from and
// --to (--to now) or --last, relative instants cut to their hour; a bad time
// or a --limit outside 0..1000 is INVALID_ARGUMENT naming the flag.
absl::StatusOr<v1::GetWasteRequest> WasteRequest(const WasteFlags& flags, absl::Time now);

}  // namespace fleetcap::ctl

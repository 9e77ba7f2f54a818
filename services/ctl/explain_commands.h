#pragma once
// `fleetcapctl chargeback explain`: how one team's lines of one hour are
// made, hold by hold, adding up to each line (docs/chargeback.md).

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> ExplainCommands();

struct ExplainFlags {
  std::string team, hour, model, cluster;
};

// The request for `chargeback explain` at `now`: --team and --hour (the
// start of an hour, RFC 3339, or relative to now and cut to its hour as
// time_flags.h reads it) are required; a bad one is INVALID_ARGUMENT naming
// the flag.
absl::StatusOr<v1::ExplainChargebackRequest> ExplainRequest(const ExplainFlags& flags, absl::Time now);

}  // namespace fleetcap::ctl

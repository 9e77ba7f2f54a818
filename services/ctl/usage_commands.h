#pragma once
// `fleetcapctl usage`: per time bucket, how hard the selected accelerators
// (or pods' shares of them) worked; a table for people, JSON for programs.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fleetcap/v1/usage.grpc.pb.h"
#include "services/ctl/client.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> UsageCommands();

struct UsageFlags {
  std::string cluster, device, node, model, pod, namespace_, start, end, last, resolution = "hour";
};

// The request for `usage` at `now` (--end defaults to now, --start to a day
// before --end; --last instead of both; instants as time_flags.h reads
// them); bad times or resolution are INVALID_ARGUMENT naming the flag.
absl::StatusOr<v1::GetUsageRequest> UsageRequest(const UsageFlags& flags, absl::Time now);

std::string RenderUsage(const v1::UsageReport& report, Format format);

}  // namespace fleetcap::ctl

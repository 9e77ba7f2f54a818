#pragma once
// `fleetcapctl insights changes`: why spend changed between a window and the
// one of the same length before it, as the waterfall of its drivers
// (services/exports/spend_change_format.h, docs/insights.md).

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

std::vector<Command> InsightsChangesCommands();

// The flags of `insights changes` as given.
struct InsightsChangesFlags {
  std::string from, to, last;  // time_flags.h
  std::string team, namespace_;
  int64_t top = 0;
};

// The request `insights changes` sends at `now`: the current window from
// --from and --to (--to now when not given) or --last, cut to whole hours
// (time_flags.h). A missing or malformed time, or --top outside 0..100, is
// INVALID_ARGUMENT naming the flag; the server checks the rest.
absl::StatusOr<v1::GetSpendChangeRequest> InsightsChangesRequest(const InsightsChangesFlags& flags, absl::Time now);

}  // namespace fleetcap::ctl

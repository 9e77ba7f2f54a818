#pragma once
// `fleetcapctl chargeback`: who pays for the accelerators over a window,
// summed by the fields asked for, as a table, proto3 JSON, CSV or FOCUS rows
// (chargeback_format.h, docs/chargeback.md). Subcommands of `chargeback`
// (such as `chargeback explain`) belong here too.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "services/ctl/command.h"

namespace fleetcap::ctl {

// Every `chargeback` command. A subcommand comes before `chargeback` itself:
// fleetcapctl runs the first command whose words it finds.
std::vector<Command> ChargebackCommands();

// The flags of `chargeback` as given.
struct ChargebackFlags {
  std::string from, to, last;  // time_flags.h
  std::string team, cluster, namespace_, workload, model, line_kind;
  std::string group_by;  // comma-separated
  std::string resolution = "none";
};

// The request `chargeback` sends at `now`: the window from --from and --to
// (--to now when not given) or --last, an instant relative to now cut to the
// start of its hour (time_flags.h). A missing or malformed time, an unknown
// --group-by field, --resolution or --line-kind is INVALID_ARGUMENT naming
// the flag; the server checks the rest (whole hours, the window's length).
absl::StatusOr<v1::GetChargebackRequest> ChargebackRequest(const ChargebackFlags& flags, absl::Time now);

}  // namespace fleetcap::ctl

#include "services/ctl/explain_commands.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/ctl/client.h"
#include "services/ctl/explain_format.h"
#include "services/ctl/time_flags.h"

namespace fleetcap::ctl {
namespace {

int RunExplain(const std::vector<std::string>& args) {
  Invocation inv;
  ExplainFlags e;
  FlagSet flags("fleetcapctl chargeback explain",
                "--team T --hour H [--model M] [--cluster C] [flags]\n\n"
                "How each of the team's chargeback lines of the hour is made: its holds with their seconds,\n"
                "milli-devices, prices and shares, the idle, shared and fixed cost it received, and its total.");
  flags.String("team", &e.team, "the team (\"idle\" and \"unassigned\" too)");
  flags.String("hour", &e.hour, "start of the hour: RFC 3339 (2026-01-05T10:00:00Z), or -1h, yesterday...");
  flags.String("model", &e.model, "only the lines of this accelerator model");
  flags.String("cluster", &e.cluster, "only the lines of this cluster");
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto request = ExplainRequest(e, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));
  v1::ChargebackExplanation explanation;
  grpc::Status status = Call(inv.client, &v1::ChargebackService::Stub::ExplainChargeback, *request, &explanation);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderExplanation(explanation, inv.format);
  return 0;
}

}  // namespace

std::vector<Command> ExplainCommands() {
  return {{{"chargeback", "explain"},
           "--team T --hour H [--model M] [--cluster C]  the holds, prices and shares that make up a line",
           RunExplain}};
}

absl::StatusOr<v1::ExplainChargebackRequest> ExplainRequest(const ExplainFlags& f, absl::Time now) {
  if (f.team.empty()) return absl::InvalidArgumentError("--team: empty; name the team whose lines to explain");
  if (f.hour.empty()) return absl::InvalidArgumentError("--hour: empty; give the hour, e.g. 2026-01-05T10:00:00Z");
  FLEETCAP_ASSIGN_OR_RETURN(absl::Time hour, ParseInstantFlag("--hour", f.hour, now, Align::kHour));
  if (hour != absl::FromUnixSeconds(absl::ToUnixSeconds(hour)) || absl::ToUnixSeconds(hour) % 3600 != 0) {
    return absl::InvalidArgumentError(absl::StrCat("--hour: ", f.hour, " is not the start of an hour"));
  }
  v1::ExplainChargebackRequest request;
  request.set_team(f.team);
  *request.mutable_hour() = ToProtoTimestamp(hour);
  request.set_model(f.model);
  request.set_cluster(f.cluster);
  return request;
}

}  // namespace fleetcap::ctl

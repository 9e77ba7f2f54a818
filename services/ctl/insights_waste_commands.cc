#include "services/ctl/insights_waste_commands.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "proto_time.h"
#include "services/ctl/client.h"
#include "services/ctl/time_flags.h"
#include "services/exports/waste_format.h"

namespace fleetcap::ctl {
namespace {

int RunInsightsWaste(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json or csv";
  WasteFlags w;
  FlagSet flags("fleetcapctl insights waste",
                "(--from T [--to T] | --last N) [--team T] [--namespace N] [--cluster C] [--limit N]\n"
                "  [--format table|json|csv] [flags]\n\n"
                "Where money goes on accelerators held idle in [from, to) (whole UTC hours, at most 400 days):\n"
                "a pod's devices held below the policy's insights.idle_below for at least insights.idle_for,\n"
                "per workload (the most wasted first) and team, in device-hours and money at the price in\n"
                "force; time without telemetry is unknown, never waste. Then each team's efficiency and the\n"
                "fleet's: active over observed device time, by SM activity where read, else duty cycle.\n"
                "T is RFC 3339, now, today, month-start or -N with h, d or w (cut to the start of the hour);\n"
                "--last 7d is the 7 days up to this hour. --team covers the teams under it too; a team token\n"
                "sees only its own subtree. docs/insights.md describes each figure.");
  flags.String("from", &w.from, "start of the window (inclusive, a whole hour): RFC 3339, month-start, -7d...");
  flags.String("to", &w.to, "end of the window (exclusive, a whole hour; default now)");
  flags.String("last", &w.last, "the window as a length up to now, instead of --from and --to (e.g. 7d)");
  flags.String("team", &w.team, "one team and those under it");
  flags.String("namespace", &w.namespace_, "one namespace");
  flags.String("cluster", &w.cluster, "one cluster");
  flags.Int("limit", &w.limit, "the workloads listed, the most wasted first (1..1000; 0 lists 50)");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = exports::ParseReportFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto request = WasteRequest(w, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));

  v1::WasteReport report;
  grpc::Status status = Call(inv.client, &v1::InsightsService::Stub::GetWaste, *request, &report);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << exports::RenderWaste(report, *format);
  return 0;
}

}  // namespace

std::vector<Command> InsightsWasteCommands() {
  return {{{"insights", "waste"},
           "(--from T [--to T] | --last N) [--team T] [--limit N] [--format table|json|csv]  "
           "devices held idle, in money, and each team's efficiency",
           RunInsightsWaste}};
}

absl::StatusOr<v1::GetWasteRequest> WasteRequest(const WasteFlags& f, absl::Time now) {
  v1::GetWasteRequest request;
  FLEETCAP_ASSIGN_OR_RETURN(const Window window,
                            ParseWindowFlags({"--from", "--to", "--last"}, {f.from, f.to, f.last}, now, Align::kHour));
  if (f.limit < 0 || f.limit > 1000) {
    return absl::InvalidArgumentError(absl::StrCat("--limit: ", f.limit, " is out of range (1..1000)"));
  }
  *request.mutable_start() = ToProtoTimestamp(window.start);
  *request.mutable_end() = ToProtoTimestamp(window.end);
  request.set_team(f.team);
  request.set_namespace_(f.namespace_);
  request.set_cluster(f.cluster);
  request.set_limit(static_cast<int32_t>(f.limit));
  return request;
}

}  // namespace fleetcap::ctl

#include "services/ctl/insights_changes_commands.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "fleetcap/v1/insights.grpc.pb.h"
#include "proto_time.h"
#include "services/ctl/client.h"
#include "services/ctl/time_flags.h"
#include "services/exports/spend_change_format.h"

namespace fleetcap::ctl {
namespace {

int RunInsightsChanges(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json or csv";
  InsightsChangesFlags c;
  FlagSet flags("fleetcapctl insights changes",
                "(--from T [--to T] | --last N) [--team T] [--namespace N] [--top K] [--format table|json|csv]\n"
                "  [flags]\n\n"
                "Why spend changed from the window of the same length before [from, to) to [from, to) (whole\n"
                "UTC hours, at most 400 days): the change split into drivers that add up to it exactly\n"
                "(workloads that started or ended, held time, model mix, price, idle share, shared and fixed\n"
                "costs) with the workloads behind each, as a waterfall from the previous window's cost to the\n"
                "current one. T is as for `chargeback` (RFC 3339, -7d, week-start...). --team covers the teams\n"
                "under it too; with neither --team nor --namespace, the fleet (a team token: its subtree).\n"
                "--format json is the API's proto3 JSON; csv gives every amount exactly. docs/insights.md.");
  flags.String("from", &c.from, "start of the current window (inclusive, a whole hour): RFC 3339, -7d...");
  flags.String("to", &c.to, "end of the current window (exclusive, a whole hour; default now)");
  flags.String("last", &c.last, "the current window as a length up to now, instead of --from and --to (e.g. 7d)");
  flags.String("team", &c.team, "one team and those under it");
  flags.String("namespace", &c.namespace_, "one namespace");
  flags.Int("top", &c.top, "workloads listed under each driver, 0..100 (0: 5)");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = exports::ParseReportFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto request = InsightsChangesRequest(c, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));

  v1::SpendChangeReport report;
  grpc::Status status = Call(inv.client, &v1::InsightsService::Stub::GetSpendChange, *request, &report);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << exports::RenderSpendChange(report, *format);
  return 0;
}

}  // namespace

std::vector<Command> InsightsChangesCommands() {
  return {{{"insights", "changes"},
           "(--from T [--to T] | --last N) [--team T] [--namespace N] [--top K] [--format table|json|csv]  "
           "why spend changed from the window before",
           RunInsightsChanges}};
}

absl::StatusOr<v1::GetSpendChangeRequest> InsightsChangesRequest(const InsightsChangesFlags& f, absl::Time now) {
  v1::GetSpendChangeRequest request;
  FLEETCAP_ASSIGN_OR_RETURN(const Window window,
                            ParseWindowFlags({"--from", "--to", "--last"}, {f.from, f.to, f.last}, now, Align::kHour));
  if (f.top < 0 || f.top > 100) return absl::InvalidArgumentError(absl::StrCat("--top: ", f.top, " is not in 0..100"));
  *request.mutable_start() = ToProtoTimestamp(window.start);
  *request.mutable_end() = ToProtoTimestamp(window.end);
  request.set_team(f.team);
  request.set_namespace_(f.namespace_);
  request.set_top(static_cast<int32_t>(f.top));
  return request;
}

}  // namespace fleetcap::ctl

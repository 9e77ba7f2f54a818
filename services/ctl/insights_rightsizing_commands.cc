#include "services/ctl/insights_rightsizing_commands.h"

#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/ctl/client.h"
#include "services/ctl/insights_rightsizing_format.h"

namespace fleetcap::ctl {
namespace {

int RunRightsize(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json or csv";
  std::string team, namespace_name, cluster, limit = "0";
  FlagSet flags("fleetcapctl insights rightsize",
                "[--team T] [--namespace N] [--cluster C] [--limit 50] [--format table|json|csv] [flags]\n\n"
                "What to resize and what it would save a month, the largest saving first, as the optimizer\n"
                "last computed it per cluster: fewer devices, a smaller slice (MIG or time-slicing) or a\n"
                "cheaper flavor, each with its evidence and confidence (a team token reads only its own\n"
                "subtree's). docs/insights.md, \"Rightsizing\", describes each rule.");
  flags.String("team", &team, "a team and the teams under it; empty for every team you may read");
  flags.String("namespace", &namespace_name, "one namespace");
  flags.String("cluster", &cluster, "one cluster");
  flags.String("limit", &limit, "the recommendations shown, 1..1000 (0: 50); the totals count them all");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = ParseReportFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  int32_t rows = 0;
  if (!absl::SimpleAtoi(limit, &rows) || rows < 0 || rows > 1000) {
    return Fail(2, absl::StrCat("--limit: \"", limit, "\" is not a whole number from 0 to 1000"));
  }
  v1::GetRightsizingRequest request;
  request.set_team(team);
  request.set_namespace_(namespace_name);
  request.set_cluster(cluster);
  request.set_limit(rows);
  v1::RightsizingReport report;
  grpc::Status status = Call(inv.client, &v1::InsightsService::Stub::GetRightsizing, request, &report);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderRightsizing(report, *format);
  return 0;
}

}  // namespace

std::vector<Command> InsightsRightsizingCommands() {
  return {{{"insights", "rightsize"},
           "[--team T] [--namespace N] [--cluster C] [--limit 50] [--format table|json|csv]  what to resize, "
           "savings a month",
           RunRightsize}};
}

}  // namespace fleetcap::ctl

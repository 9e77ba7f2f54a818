#include "services/ctl/fleet_commands.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/ctl/time_flags.h"
#include "services/exports/proto_json.h"
#include "services/exports/table.h"

namespace fleetcap::ctl {

using exports::Table;

namespace {

// Milli-devices as devices with three decimals, exactly (no floating point).
std::string Devices(int64_t milli) { return absl::StrFormat("%d.%03d", milli / 1000, milli % 1000); }

std::string Percent(int64_t part, int64_t whole) {
  if (whole == 0) return "-";
  return absl::StrFormat("%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

int RunFleetSummary(const std::vector<std::string>& args) {
  Invocation inv;
  std::string cluster;
  std::string at;
  FlagSet flags("fleetcapctl fleet summary",
                "[--cluster C] [--at T] [flags]\n\nPer accelerator model, the devices in service and the devices "
                "held at an instant; per team (as the policy in force then attributes them), the devices held.");
  flags.String("cluster", &cluster, "a cluster name; empty for all");
  flags.String("at", &at, "an instant: RFC 3339, yesterday, month-start, -7d...; empty for now");
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto request = FleetSummaryRequest(cluster, at, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));

  v1::FleetSummary summary;
  grpc::Status status = Call(inv.client, &v1::FleetService::Stub::GetFleetSummary, *request, &summary);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderFleetSummary(summary, inv.format);
  return 0;
}

}  // namespace

std::vector<Command> FleetCommands() {
  return {
      {{"fleet", "summary"}, "[--cluster C] [--at T]  accelerators in service and held, per model", RunFleetSummary}};
}

absl::StatusOr<v1::GetFleetSummaryRequest> FleetSummaryRequest(const std::string& cluster, const std::string& at,
                                                               absl::Time now) {
  v1::GetFleetSummaryRequest request;
  request.set_cluster(cluster);
  if (!at.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(auto t, ParseInstantFlag("--at", at, now, Align::kSecond));
    *request.mutable_at() = ToProtoTimestamp(t);
  }
  return request;
}

std::string RenderFleetSummary(const v1::FleetSummary& summary, Format format) {
  if (format == Format::kJson) return exports::ProtoJson(summary);
  absl::Time at = FromProtoTimestamp(summary.at());
  std::string out = absl::StrCat("cluster ", summary.cluster().empty() ? "(all)" : summary.cluster(), " at ",
                                 FormatRfc3339(at), "\n");
  Table table({"MODEL", "DEVICES", "HELD", "HELD%"});
  for (const auto& m : summary.models()) {
    table.AddRow(
        {m.model(), std::to_string(m.devices()), Devices(m.held_milli()), Percent(m.held_milli(), m.devices() * 1000)});
  }
  table.AddRow({"TOTAL", std::to_string(summary.devices()), Devices(summary.held_milli()),
                Percent(summary.held_milli(), summary.devices() * 1000)});
  out += table.Render();
  if (summary.teams_size() > 0) {
    Table teams({"TEAM", "HELD", "SHARE"});
    for (const auto& t : summary.teams()) {
      teams.AddRow({t.team(), Devices(t.held_milli()), Percent(t.held_milli(), summary.held_milli())});
    }
    out += "\n" + teams.Render();
  }
  return out;
}

}  // namespace fleetcap::ctl

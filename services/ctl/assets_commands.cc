#include "services/ctl/assets_commands.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "proto_time.h"
#include "services/ctl/client.h"
#include "services/ctl/time_flags.h"
#include "services/exports/assets_format.h"

namespace fleetcap::ctl {

using exports::ParseReportFormat;
using exports::ReportFormat;

namespace {

// GetAssetsRequest.limit's range (docs/fleet.md, "Assets").
constexpr int64_t kMaxAssetRows = 1000;

constexpr char kWindowHelp[] =
    "T is RFC 3339, now, today, yesterday, week-start, month-start, last-month-start or -N with\n"
    "h, d or w (-7d: relative instants are cut to the start of their hour); --to is now when not\n"
    "given; --last 30d is the 30 days up to the start of this hour. Whole UTC hours, at most 400 days.\n";

void RegisterWindowFlags(FlagSet& flags, std::string* from, std::string* to, std::string* last) {
  flags.String("from", from, "start of the window (inclusive, a whole hour): RFC 3339, month-start, -7d...");
  flags.String("to", to, "end of the window (exclusive, a whole hour; default now)");
  flags.String("last", last, "the window as a length up to now, instead of --from and --to (e.g. 30d)");
}

// The window's flags as the request's start and end.
template <typename Request>
absl::Status SetWindow(const std::string& from, const std::string& to, const std::string& last, absl::Time now,
                       Request& request) {
  FLEETCAP_ASSIGN_OR_RETURN(const Window window,
                            ParseWindowFlags({"--from", "--to", "--last"}, {from, to, last}, now, Align::kHour));
  *request.mutable_start() = ToProtoTimestamp(window.start);
  *request.mutable_end() = ToProtoTimestamp(window.end);
  return absl::OkStatus();
}

int RunAssets(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json or csv";
  AssetsFlags a;
  FlagSet flags("fleetcapctl assets",
                absl::StrCat("(--from T [--to T] | --last N) [--group-by model|cluster|node|device] [--cluster C]\n"
                             "  [--model M] [--node N] [--limit N] [--format table|json|csv] [flags]\n\n"
                             "What the fleet's devices did in [from, to): per model, cluster, node or device, the\n"
                             "devices in service, capacity, held, used and idle device-hours and the idle cost, the\n"
                             "most idle first, and the totals of every group. Used time is known per model and\n"
                             "cluster only, and idle cost once the chargeback has lines: unknown is printed as -.\n\n",
                             kWindowHelp,
                             "\nPlanners and admins only. --format json is the API's proto3 JSON; csv has every\n"
                             "figure exact. docs/fleet.md, \"Assets\", describes each figure."));
  RegisterWindowFlags(flags, &a.from, &a.to, &a.last);
  flags.String("group-by", &a.group_by, "model, cluster, node or device");
  flags.String("cluster", &a.cluster, "one cluster");
  flags.String("model", &a.model, "one accelerator model");
  flags.String("node", &a.node, "one node");
  flags.Int("limit", &a.limit, "the most rows, the most idle first: 1 to 1000");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = ParseReportFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto request = AssetsRequest(a, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));

  v1::Assets assets;
  grpc::Status status = Call(inv.client, &v1::FleetService::Stub::GetAssets, *request, &assets);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << exports::RenderAssets(assets, *format);
  return 0;
}

int RunDeviceHolds(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json or csv";
  DeviceHoldsFlags h;
  FlagSet flags(
      "fleetcapctl assets holds",
      absl::StrCat("--cluster C --device D (--from T [--to T] | --last N) [--format table|json|csv] [flags]\n\n"
                   "The pods that held one device in [from, to): each pod's namespace, workload, team,\n"
                   "the devices it held, the hold clipped to the window and its device-hours.\n\n",
                   kWindowHelp, "\nPlanners and admins only."));
  flags.String("cluster", &h.cluster, "the device's cluster (required)");
  flags.String("device", &h.device, "the device, as `fleetcapctl assets --group-by device` names it (required)");
  RegisterWindowFlags(flags, &h.from, &h.to, &h.last);
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = ParseReportFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto request = DeviceHoldsRequest(h, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));

  v1::DeviceHolds holds;
  grpc::Status status = Call(inv.client, &v1::FleetService::Stub::ListDeviceHolds, *request, &holds);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << exports::RenderDeviceHolds(holds, *format);
  return 0;
}

}  // namespace

std::vector<Command> AssetsCommands() {
  return {
      {{"assets", "holds"},
       "--cluster C --device D (--from T [--to T] | --last N) [--format csv|...]  the pods that held a device",
       RunDeviceHolds},
      {{"assets"},
       "(--from T [--to T] | --last N) [--group-by model|cluster|node|device] [--limit N] [--format csv|...]  "
       "capacity, held, used and idle per model, cluster, node or device",
       RunAssets},
  };
}

absl::StatusOr<v1::GetAssetsRequest> AssetsRequest(const AssetsFlags& a, absl::Time now) {
  v1::GetAssetsRequest request;
  FLEETCAP_RETURN_IF_ERROR(SetWindow(a.from, a.to, a.last, now, request));
  if (a.group_by != "model" && a.group_by != "cluster" && a.group_by != "node" && a.group_by != "device") {
    return absl::InvalidArgumentError(
        absl::StrCat("--group-by: \"", a.group_by, "\" is not one of model, cluster, node, device"));
  }
  if (a.limit < 1 || a.limit > kMaxAssetRows) {
    return absl::InvalidArgumentError(absl::StrCat("--limit: ", a.limit, " is not between 1 and ", kMaxAssetRows));
  }
  request.set_group_by(a.group_by);
  request.set_cluster(a.cluster);
  request.set_model(a.model);
  request.set_node(a.node);
  request.set_limit(a.limit);
  return request;
}

absl::StatusOr<v1::ListDeviceHoldsRequest> DeviceHoldsRequest(const DeviceHoldsFlags& h, absl::Time now) {
  if (h.cluster.empty()) return absl::InvalidArgumentError("--cluster: missing; give the device's cluster");
  if (h.device.empty()) return absl::InvalidArgumentError("--device: missing; give the device");
  v1::ListDeviceHoldsRequest request;
  FLEETCAP_RETURN_IF_ERROR(SetWindow(h.from, h.to, h.last, now, request));
  request.set_cluster(h.cluster);
  request.set_device(h.device);
  return request;
}

}  // namespace fleetcap::ctl

#include "services/ctl/usage_commands.h"

#include <iostream>

#include "absl/strings/ascii.h"
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

int RunUsage(const std::vector<std::string>& args) {
  Invocation inv;
  UsageFlags u;
  FlagSet flags("fleetcapctl usage",
                "--cluster C [--device D | --node N | --model M | --pod P] [--namespace NS]\n"
                "  [--start T] [--end T] [--last N] [--resolution minute|hour|day] [flags]\n\n"
                "Per bucket of [start, end): mean and max utilisation, memory, power and sample count.\n"
                "T is RFC 3339, now, today, yesterday, week-start, month-start, last-month-start or -N with\n"
                "h, d or w (-12h). Default window: the last 24 hours.");
  flags.String("cluster", &u.cluster, "the cluster");
  flags.String("device", &u.device, "one device (GPU UUID, TPU accelerator id, ...)");
  flags.String("node", &u.node, "the devices of one node");
  flags.String("model", &u.model, "the devices of one accelerator model");
  flags.String("pod", &u.pod, "one pod's share (name or uid)");
  flags.String("namespace", &u.namespace_, "the pods of one namespace");
  flags.String("start", &u.start, "start (inclusive): RFC 3339, today, -12h...; default a day before --end");
  flags.String("end", &u.end, "end (exclusive); default now");
  flags.String("last", &u.last, "the window as a length up to now, instead of --start and --end (e.g. 6h)");
  flags.String("resolution", &u.resolution, "minute, hour or day");
  Parse(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto request = UsageRequest(u, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));

  v1::UsageReport report;
  grpc::Status status = Call(inv.client, &v1::UsageService::Stub::GetUsage, *request, &report);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderUsage(report, inv.format);
  return 0;
}

}  // namespace

std::vector<Command> UsageCommands() {
  return {{{"usage"},
           "--cluster C [--device|--node|--model|--pod X] [--start T --end T]  utilisation per bucket",
           RunUsage}};
}

absl::StatusOr<v1::GetUsageRequest> UsageRequest(const UsageFlags& f, absl::Time now) {
  if (f.cluster.empty()) return absl::InvalidArgumentError("--cluster: empty; usage is kept per cluster");
  v1::GetUsageRequest request;
  request.set_cluster(f.cluster);
  request.set_device(f.device);
  request.set_node(f.node);
  request.set_model(f.model);
  request.set_pod(f.pod);
  request.set_namespace_(f.namespace_);
  FLEETCAP_ASSIGN_OR_RETURN(
      const Window window,
      ParseWindowFlags({"--start", "--end", "--last"}, {f.start, f.end, f.last}, now, Align::kSecond, absl::Hours(24)));
  *request.mutable_start() = ToProtoTimestamp(window.start);
  *request.mutable_end() = ToProtoTimestamp(window.end);
  const std::string r = absl::AsciiStrToLower(f.resolution);
  if (r == "minute") {
    request.set_resolution(v1::MINUTE);
  } else if (r == "hour") {
    request.set_resolution(v1::HOUR);
  } else if (r == "day") {
    request.set_resolution(v1::DAY);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("--resolution: \"", f.resolution, "\" is not minute, hour or day"));
  }
  return request;
}

std::string RenderUsage(const v1::UsageReport& report, Format format) {
  if (format == Format::kJson) return exports::ProtoJson(report);
  std::string out =
      absl::StrCat("cluster ", report.cluster(), " from ", FormatRfc3339(FromProtoTimestamp(report.start())), " to ",
                   FormatRfc3339(FromProtoTimestamp(report.end())), "\n");
  Table table({"START", "UTIL_MEAN", "UTIL_MAX", "MEMORY_GIB", "POWER_W", "SAMPLES", "SERIES"});
  for (const auto& b : report.buckets()) {
    table.AddRow({FormatRfc3339(FromProtoTimestamp(b.start())), absl::StrFormat("%.1f%%", 100 * b.util_mean()),
                  absl::StrFormat("%.1f%%", 100 * b.util_max()),
                  absl::StrFormat("%.2f", static_cast<double>(b.memory_used_bytes()) / (1 << 30)),
                  absl::StrFormat("%.1f", b.power_watts()), std::to_string(b.samples()), std::to_string(b.series())});
  }
  if (report.buckets().empty()) return out + "no usage recorded in this window\n";
  return out + table.Render();
}

}  // namespace fleetcap::ctl

#include "services/ctl/chargeback_commands.h"

#include <algorithm>
#include <iostream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/ctl/client.h"
#include "services/ctl/time_flags.h"
#include "services/exports/chargeback_format.h"
#include "store/chargeback_repository.h"

namespace fleetcap::ctl {

using exports::ParseChargebackFormat;
using exports::RenderChargeback;

namespace {

template <size_t N>
bool OneOf(const std::string& value, const char* const (&choices)[N]) {
  return std::any_of(std::begin(choices), std::end(choices), [&](const char* c) { return value == c; });
}

int RunChargeback(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json, csv or focus";
  ChargebackFlags c;
  FlagSet flags("fleetcapctl chargeback",
                "(--from T [--to T] | --last N) [--team T] [--cluster C] [--namespace N] [--workload W] [--model M]\n"
                "  [--line-kind workload|idle|shared|fixed] [--group-by team,model,...]\n"
                "  [--resolution hour|day|month|none] [--format table|json|csv|focus] [flags]\n\n"
                "What each team pays for accelerator time in [from, to) (whole UTC hours, at most 400 days):\n"
                "T is RFC 3339, now, today, yesterday, week-start, month-start, last-month-start or -N with\n"
                "h, d or w (-7d: relative instants are cut to the start of their hour); --to is now when not\n"
                "given; --last 30d is the 30 days up to the start of this hour.\n"
                "held and used device-hours, efficiency, and direct, idle, shared and total cost, summed by\n"
                "the --group-by fields, one line per --resolution bucket (none: one for the whole window).\n"
                "--team covers the teams under it too. A team token sees only its own subtree.\n"
                "--format json is the API's proto3 JSON; csv and focus (FOCUS 1.2) are for spreadsheets\n"
                "and FinOps tools, every amount exact. docs/chargeback.md describes each column.");
  flags.String("from", &c.from, "start of the window (inclusive, a whole hour): RFC 3339, month-start, -7d...");
  flags.String("to", &c.to, "end of the window (exclusive, a whole hour; default now)");
  flags.String("last", &c.last, "the window as a length up to now, instead of --from and --to (e.g. 30d)");
  flags.String("team", &c.team, "one team and those under it");
  flags.String("cluster", &c.cluster, "one cluster");
  flags.String("namespace", &c.namespace_, "one namespace");
  flags.String("workload", &c.workload, "one workload (Kind/name)");
  flags.String("model", &c.model, "one accelerator model");
  flags.String("line-kind", &c.line_kind, "workload, idle, shared or fixed");
  flags.String("group-by", &c.group_by, "comma-separated: team, cluster, namespace, workload, model, line_kind");
  flags.String("resolution", &c.resolution, "hour, day, month (UTC) or none");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = ParseChargebackFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto request = ChargebackRequest(c, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));

  v1::ChargebackReport report;
  grpc::Status status = Call(inv.client, &v1::ChargebackService::Stub::GetChargeback, *request, &report);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderChargeback(*request, report, *format);
  return 0;
}

}  // namespace

std::vector<Command> ChargebackCommands() {
  return {
      {{"chargeback"},
       "(--from T [--to T] | --last N) [--team T] [--group-by team,model] [--resolution day] [--format csv|focus|...]  "
       "who pays for the accelerators",
       RunChargeback}};
}

absl::StatusOr<v1::GetChargebackRequest> ChargebackRequest(const ChargebackFlags& f, absl::Time now) {
  v1::GetChargebackRequest request;
  FLEETCAP_ASSIGN_OR_RETURN(const Window window,
                            ParseWindowFlags({"--from", "--to", "--last"}, {f.from, f.to, f.last}, now, Align::kHour));
  *request.mutable_start() = ToProtoTimestamp(window.start);
  *request.mutable_end() = ToProtoTimestamp(window.end);
  for (absl::string_view part : absl::StrSplit(f.group_by, ',', absl::SkipWhitespace())) {
    const std::string field(absl::StripAsciiWhitespace(part));
    if (!OneOf(field, exports::kChargebackGroupByFields)) {
      return absl::InvalidArgumentError(absl::StrCat("--group-by: \"", field, "\" is not one of ",
                                                     absl::StrJoin(exports::kChargebackGroupByFields, ", ")));
    }
    request.add_group_by(field);
  }
  const std::string resolution = absl::AsciiStrToLower(f.resolution);
  if (resolution == "hour") {
    request.set_resolution(v1::CHARGEBACK_RESOLUTION_HOUR);
  } else if (resolution == "day") {
    request.set_resolution(v1::CHARGEBACK_RESOLUTION_DAY);
  } else if (resolution == "month") {
    request.set_resolution(v1::CHARGEBACK_RESOLUTION_MONTH);
  } else if (resolution == "none" || resolution.empty()) {
    request.set_resolution(v1::CHARGEBACK_RESOLUTION_NONE);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--resolution: \"", f.resolution, "\" is not hour, day, month or none"));
  }
  if (!f.line_kind.empty() && !OneOf(f.line_kind, store::kChargebackLineKinds)) {
    return absl::InvalidArgumentError(absl::StrCat("--line-kind: \"", f.line_kind, "\" is not one of ",
                                                   absl::StrJoin(store::kChargebackLineKinds, ", ")));
  }
  request.set_team(f.team);
  request.set_cluster(f.cluster);
  request.set_namespace_(f.namespace_);
  request.set_workload(f.workload);
  request.set_model(f.model);
  request.set_line_kind(f.line_kind);
  return request;
}

}  // namespace fleetcap::ctl

#include "services/ctl/forecast_commands.h"

#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "services/ctl/client.h"
#include "services/exports/forecast_format.h"

namespace fleetcap::ctl {

using exports::ParseReportFormat;
using exports::RenderForecast;

namespace {

int RunForecast(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json or csv";
  std::string flavor, team, horizon = "90d", what = "held";
  FlagSet flags("fleetcapctl forecast",
                "--flavor F [--team T] [--horizon 90d] [--what held|pending] [--format table|json|csv] [flags]\n\n"
                "The newest stored forecast of one flavor: its total, or one team's (a team token reads only\n"
                "its own subtree's). The history it was fitted on, then the median (DEVICES) and the 90th\n"
                "percentile per hour (per day, each day's peak, past 14 days), the flavor's capacity, the\n"
                "day capacity runs out, and the model with its fit. docs/planning.md describes each field.");
  flags.String("flavor", &flavor, "the policy's flavor (required)");
  flags.String("team", &team, "one team; empty for the flavor's total");
  flags.String("horizon", &horizon, "how far ahead: whole hours or days up to 90 days (e.g. 72h, 30d)");
  flags.String("what", &what, "held (device time held) or pending (demand left waiting)");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = ParseReportFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto request = ForecastRequest(flavor, team, horizon, what);
  if (!request.ok()) return Fail(2, std::string(request.status().message()));
  v1::Forecast forecast;
  grpc::Status status = Call(inv.client, &v1::PlanningService::Stub::GetForecast, *request, &forecast);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderForecast(forecast, *format);
  return 0;
}

}  // namespace

std::vector<Command> ForecastCommands() {
  return {{{"forecast"},
           "--flavor F [--team T] [--horizon 90d] [--what held|pending] [--format table|json|csv]  demand ahead",
           RunForecast}};
}

absl::StatusOr<v1::GetForecastRequest> ForecastRequest(const std::string& flavor, const std::string& team,
                                                       const std::string& horizon, const std::string& what) {
  if (flavor.empty()) return absl::InvalidArgumentError("--flavor: missing; name the policy's flavor");
  if (what != "held" && what != "pending") {
    return absl::InvalidArgumentError(absl::StrCat("--what: \"", what, "\" is not one of held, pending"));
  }
  absl::string_view text = horizon;
  int64_t per = 0;
  if (absl::ConsumeSuffix(&text, "h")) {
    per = 1;
  } else if (absl::ConsumeSuffix(&text, "d")) {
    per = 24;
  }
  int64_t count = 0;
  if (per == 0 || text.empty() || text.size() > 6 || text[0] == '+' || text[0] == '-' ||
      !absl::SimpleAtoi(text, &count) || count < 1 || count * per > 2160) {
    return absl::InvalidArgumentError(
        absl::StrCat("--horizon: \"", horizon, "\" is not whole hours or days up to 90 days (e.g. 72h, 30d, 90d)"));
  }
  v1::GetForecastRequest request;
  request.set_flavor(flavor);
  request.set_team(team);
  request.set_horizon_hours(static_cast<int32_t>(count * per));
  request.set_what(what);
  return request;
}

}  // namespace fleetcap::ctl

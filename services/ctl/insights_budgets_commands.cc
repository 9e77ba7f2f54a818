#include "services/ctl/insights_budgets_commands.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "fleetcap/v1/insights.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "proto_time.h"
#include "services/ctl/client.h"
#include "services/ctl/time_flags.h"
#include "services/exports/csv.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/table.h"

namespace fleetcap::ctl {
namespace {

using exports::FinerThanHundredths;
using exports::Hundredths;
using exports::Money;

std::string BudgetsTable(const v1::BudgetReport& report) {
  if (report.budgets().empty()) return "no budgets for this month\n";
  exports::Table table({"TEAM", "MONTH", "BUDGET", "SPENT", "THROUGH", "FORECAST_REST", "PROJECTED", "STATUS"});
  bool rounded = false;
  auto money = [&rounded](int64_t micro) {
    rounded = rounded || FinerThanHundredths(micro);
    return Hundredths(micro);
  };
  std::string methods;
  for (const v1::Budget& b : report.budgets()) {
    table.AddRow({b.team(), b.month(), money(b.amount_micro()), money(b.spent_micro()),
                  FormatRfc3339(FromProtoTimestamp(b.through())), money(b.forecast_rest_micro()),
                  money(b.projected_micro()), b.status()});
    absl::StrAppend(&methods, "  ", b.team(), ": ", b.method(), "\n");
  }
  return absl::StrCat("Budgets (", report.currency(), ")\n", table.Render(),
                      rounded ? exports::kRoundedToHundredthsNote : "", "Forecast of the rest of the month:\n",
                      methods);
}

std::string BudgetsJson(const v1::BudgetReport& report) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.add_whitespace = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(report, &json, options);
  return json;
}

std::string BudgetsCsv(const v1::BudgetReport& report) {
  std::string out = exports::CsvRecord(
      {"team", "month", "amount", "spent", "through", "forecast_rest", "projected", "status", "method", "currency"});
  for (const v1::Budget& b : report.budgets()) {
    out += exports::CsvRecord({b.team(), b.month(), Money(b.amount_micro()), Money(b.spent_micro()),
                               FormatRfc3339(FromProtoTimestamp(b.through())), Money(b.forecast_rest_micro()),
                               Money(b.projected_micro()), b.status(), b.method(), report.currency()});
  }
  return out;
}

int RunBudgets(const std::vector<std::string>& args) {
  Invocation inv;
  inv.client.format_help = "table, json or csv";
  std::string team, at;
  FlagSet flags("fleetcapctl insights budgets",
                "[--team T] [--at T] [--format table|json|csv] [flags]\n\n"
                "Each budget of the month holding --at (default now): what the team and the teams under it\n"
                "spent of the month through the hour the chargeback is computed, the forecast of the rest\n"
                "of the month, the projection and whether it is under, projected_over or over.\n"
                "T for --at is RFC 3339, now, today, yesterday, month-start or -N with h, d or w.\n"
                "A team token sees its own subtree's budgets only. docs/insights.md, \"Budgets\".");
  flags.String("team", &team, "the budgets of one team and those under it");
  flags.String("at", &at, "an instant in the month to report (default now)");
  ParseWithOwnFormat(flags, inv, args, 0);
  if (inv.exit_code) return *inv.exit_code;
  auto format = ParseReportFormat(inv.client.format);
  if (!format.ok()) return Fail(2, std::string(format.status().message()));
  auto request = BudgetsRequest(team, at, RealClock().Now());
  if (!request.ok()) return Fail(2, std::string(request.status().message()));
  v1::BudgetReport report;
  grpc::Status status = Call(inv.client, &v1::InsightsService::Stub::GetBudgets, *request, &report);
  if (!status.ok()) return FailRpc(status, inv.client);
  std::cout << RenderBudgets(report, *format);
  return 0;
}

}  // namespace

std::vector<Command> InsightsBudgetsCommands() {
  return {{{"insights", "budgets"},
           "[--team T] [--at T] [--format table|json|csv]  each budget's month to date and forecast",
           RunBudgets}};
}

absl::StatusOr<v1::GetBudgetsRequest> BudgetsRequest(const std::string& team, const std::string& at, absl::Time now) {
  v1::GetBudgetsRequest request;
  request.set_team(team);
  if (!at.empty()) {
    auto instant = ParseInstantFlag("--at", at, now, Align::kSecond);
    if (!instant.ok()) return instant.status();
    *request.mutable_at() = ToProtoTimestamp(*instant);
  }
  return request;
}

std::string RenderBudgets(const v1::BudgetReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::kTable:
      return BudgetsTable(report);
    case ReportFormat::kJson:
      return BudgetsJson(report);
    case ReportFormat::kCsv:
      return BudgetsCsv(report);
  }
  return "";
}

}  // namespace fleetcap::ctl

#pragma once
// `fleetcapctl insights budgets`: each budget of the month against the
// team's subtree's spend and the forecast of the rest of the month
// (docs/insights.md, "Budgets"), as a table, the API's proto3 JSON or CSV.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/ctl/command.h"
#include "services/exports/report_format.h"

namespace fleetcap::ctl {

using exports::ParseReportFormat;
using exports::ReportFormat;

std::vector<Command> InsightsBudgetsCommands();

// The request for --team and --at (an instant as time_flags.h reads it,
// relative to `now`; empty: the server's now).
absl::StatusOr<v1::GetBudgetsRequest> BudgetsRequest(const std::string& team, const std::string& at, absl::Time now);

// Table: money to the hundredth, with a note when a figure was rounded, and
// how each rest was forecast under it. CSV: every amount exact.
std::string RenderBudgets(const v1::BudgetReport& report, ReportFormat format);

}  // namespace fleetcap::ctl

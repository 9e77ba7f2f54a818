#include "services/api/insights/budgets_query.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/status_macros.h"
#include "optimizer/budget_pass/budget_states.h"
#include "proto_time.h"
#include "services/api/request_time.h"

namespace fleetcap::api {
namespace {

// The fleet's watermark is kept under the cluster "" (optimizer/chargeback/chargeback_run.h, kFleet).
constexpr const char* kFleetProgress = "";

// Whether the budget of `team` is among those asked for and `scope` may read it.
bool Selected(const Scope& scope, const std::vector<std::string>& asked, const std::string& team) {
  if (scope.role == Role::kTeam && !scope.Covers(team)) return false;
  return asked.empty() || std::find(asked.begin(), asked.end(), team) != asked.end();
}

v1::Budget ToProto(const budgets::BudgetState& state) {
  const insights::BudgetForecast& f = state.forecast;
  v1::Budget b;
  b.set_team(state.budget.team);
  b.set_month(absl::StrFormat("%04d-%02d", state.budget.year, state.budget.month));
  b.set_amount_micro(f.amount_micro);
  b.set_spent_micro(f.spent_micro);
  *b.mutable_through() = ToProtoTimestamp(f.through);
  b.set_forecast_rest_micro(f.forecast_rest_micro);
  b.set_projected_micro(f.projected_micro);
  b.set_status(f.status);
  b.set_method(f.method);
  return b;
}

}  // namespace

absl::StatusOr<v1::BudgetReport> BudgetsQuery::Run(const Scope& scope, const v1::GetBudgetsRequest& request) const {
  if (request.has_at()) FLEETCAP_RETURN_IF_ERROR(CheckRequestTime("at", request.at()));
  const absl::Time at = request.has_at() ? FromProtoTimestamp(request.at()) : clock_->Now();
  const std::string& team = request.team();
  if (scope.role == Role::kTeam && !team.empty() && !scope.Covers(team)) return OutOfScope("team");
  FLEETCAP_ASSIGN_OR_RETURN(const auto policy, PolicyOf(scope, policies_));
  v1::BudgetReport report;
  report.set_currency(policy->valid ? policy->document.currency : policy::PolicyDocument{}.currency);
  if (!policy->valid) return report;

  std::vector<std::string> asked;
  if (!team.empty()) {
    asked = policy::Subtree(policy->document, team);
    if (asked.empty()) return report;  // a team the policy does not know has no budget
  }
  std::vector<policy::Budget> selected;
  for (policy::Budget& b : budgets::BudgetsOfMonth(policy->document, at)) {
    if (Selected(scope, asked, b.team)) selected.push_back(std::move(b));
  }
  if (selected.empty()) return report;

  FLEETCAP_ASSIGN_OR_RETURN(std::optional<absl::Time> watermark, progress_->Watermark(kFleetProgress));
  const absl::Time through = budgets::SpentThrough(at, watermark);
  FLEETCAP_ASSIGN_OR_RETURN(auto states, budgets::ForecastBudgets(*lines_, policy->document, selected, through));
  for (const budgets::BudgetState& state : states) *report.add_budgets() = ToProto(state);
  return report;
}

}  // namespace fleetcap::api

#include "optimizer/budget_pass/budget_pass.h"

#include "common/status_macros.h"

namespace fleetcap::budgets {

absl::StatusOr<BudgetPassReport> BudgetPass::Run(std::optional<absl::Time> watermark) {
  const absl::Time now = clock_->Now();
  FLEETCAP_RETURN_IF_ERROR(policies_->Refresh());
  const policy::PolicyInForce in_force = policies_->At(now);
  BudgetPassReport report;
  if (in_force.version == 0) return report;
  const policy::PolicyDocument& policy = in_force.teams->policy();
  report.currency = policy.currency;
  FLEETCAP_ASSIGN_OR_RETURN(
      report.budgets, ForecastBudgets(*lines_, policy, BudgetsOfMonth(policy, now), SpentThrough(now, watermark)));
  return report;
}

}  // namespace fleetcap::budgets

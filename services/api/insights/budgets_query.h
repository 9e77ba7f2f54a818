#pragma once
// InsightsService.GetBudgets as a transport-free operation (docs/insights.md,
// "Budgets"): each budget of the active policy for the month holding `at`
// (now when unset), with what its team's subtree spent of the month through
// the hour the chargeback is computed, the forecast of the rest and the
// status (optimizer/insights/budget_forecast.h).
//
// The spend is read from the chargeback's daily rollup for the whole days and
// its hourly lines for the day in progress, summed per team and then over each
// budget's subtree. It is computed through the fleet's watermark (every
// cluster's hours before it are computed) or the hour holding `at`, the
// earlier: an hour not computed yet is neither spent nor a gap in the rate.
//
// A team token sees the budgets of the teams of its subtree only (the budget
// of a team above it also spends its siblings' money).

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

class BudgetsQuery {
 public:
  // All must outlive the query and be thread-safe. `progress` is read for the
  // fleet's watermark only.
  BudgetsQuery(const store::ChargebackReadRepository* lines, store::ChargebackWriteRepository* progress,
               const ActivePolicyCache* policies, const Clock* clock)
      : lines_(lines), progress_(progress), policies_(policies), clock_(clock) {}

  // The budgets `request` selects (`team`: that team's and those under it),
  // ordered by team. INVALID_ARGUMENT naming `at` out of the API's range;
  // PERMISSION_DENIED when a team token names a team outside its subtree (the
  // same whether or not it exists); OUT_OF_RANGE when a sum passes int64.
  absl::StatusOr<v1::BudgetReport> Run(const Scope& scope, const v1::GetBudgetsRequest& request) const;

 private:
  const store::ChargebackReadRepository* lines_;
  store::ChargebackWriteRepository* progress_;
  const ActivePolicyCache* policies_;
  const Clock* clock_;
};

}  // namespace fleetcap::api

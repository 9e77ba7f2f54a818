#pragma once
// Budgets against the stored chargeback: each budget's team subtree's cost
// per UTC day, read through the chargeback reader (the daily rollup for whole
// days, the hourly lines for the day in progress), and its month forecast
// (optimizer/insights/budget_forecast.h). Shared by the API's GetBudgets and
// the optimizer's budget metrics, so both say the same.

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/insights/budget_forecast.h"
#include "policy/policy_document.h"
#include "store/chargeback_repository.h"

namespace fleetcap::budgets {

struct BudgetState {
  policy::Budget budget;
  insights::BudgetForecast forecast;
};

// The instant the month holding `at` is spent through: the hour holding `at`,
// or the fleet's watermark (every cluster computed before it) when earlier;
// the month's start before the first pass. An hour not computed yet is
// neither spent nor a gap in the rate.
absl::Time SpentThrough(absl::Time at, std::optional<absl::Time> watermark);

// The budgets of `policy` for the UTC month holding `at`, by team.
std::vector<policy::Budget> BudgetsOfMonth(const policy::PolicyDocument& policy, absl::Time at);

// Each of `budgets` (of `policy`) forecast through `through`, a whole hour
// before which the chargeback is computed; in the order given. A budget's
// spend is its team's and every team's under it in `policy`'s org tree.
// OUT_OF_RANGE when a sum passes int64; the reader's errors as they are.
absl::StatusOr<std::vector<BudgetState>> ForecastBudgets(const store::ChargebackReadRepository& lines,
                                                         const policy::PolicyDocument& policy,
                                                         const std::vector<policy::Budget>& budgets,
                                                         absl::Time through);

}  // namespace fleetcap::budgets

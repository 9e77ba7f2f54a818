#pragma once
// A budget against its month (docs/insights.md, "Budgets"): what the team's
// subtree spent of the month through the hour the chargeback is computed, the
// forecast of the rest of the month, and whether the month ends over budget.
// Pure: the caller reads the costs and the clock.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "policy/policy_document.h"

namespace fleetcap::insights {

// The complete days before `through` whose cost sets the daily rate.
inline constexpr int kBudgetLookbackDays = 7;

// The cost of a team's subtree over one UTC day (`day` its start): the whole
// day, or the part of it before `through` for the day `through` falls in.
struct DayCost {
  absl::Time day;
  int64_t cost_micro = 0;
};

struct BudgetForecastInput {
  policy::Budget budget;
  // The subtree's cost per UTC day from HistoryStart(budget, through) up to
  // `through`, in any order; a day left out cost nothing.
  std::vector<DayCost> days;
  // The chargeback is computed before this instant (the fleet's watermark,
  // or the instant asked for when earlier).
  absl::Time through;
};

struct BudgetForecast {
  absl::Time month_start, month_end;
  // `through` held to the month: spent covers [month_start, through).
  absl::Time through;
  int64_t amount_micro = 0;
  int64_t spent_micro = 0;
  int64_t forecast_rest_micro = 0;  // never negative
  int64_t projected_micro = 0;      // spent + rest
  std::string status;               // "under", "projected_over" or "over"
  std::string method;               // how the rest was forecast, in words
};

// The UTC month of `budget`: [start, end).
absl::Time MonthStart(const policy::Budget& budget);
absl::Time MonthEnd(const policy::Budget& budget);

// The first day whose cost ForecastBudget reads for `budget` through
// `through`: the month's start or the start of the lookback, the earlier.
absl::Time HistoryStart(const policy::Budget& budget, absl::Time through);

// Spent: the days of the month before `through`. The rest: a daily rate times
// the time left in the month, rounded once to the micro-unit (half up). The
// rate is the mean cost of the kBudgetLookbackDays complete UTC days before
// `through`'s day; a team whose costs begin inside them is averaged from its
// first day with a cost; one whose costs begin on `through`'s day, over the
// hours of that day so far; one with no cost at all forecasts 0 and says so.
// A rate below zero (credits) forecasts 0. OUT_OF_RANGE when a sum passes int64.
absl::StatusOr<BudgetForecast> ForecastBudget(const BudgetForecastInput& input);

}  // namespace fleetcap::insights

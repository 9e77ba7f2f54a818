// Properties of ForecastBudget over random budgets, costs and instants
// (seeded, so a failure repeats): the forecast of the rest is never negative,
// the projection is spent plus the rest and never below spent, spent is the
// month's days before `through`, a month computed to its end has nothing left
// to forecast, and the status follows from the figures.

#include <gtest/gtest.h>

#include <random>

#include "optimizer/insights/budget_forecast.h"

namespace fleetcap::insights {
namespace {

struct RandomCase {
  BudgetForecastInput input;
  int64_t spent = 0;  // worked out here, day by day
};

RandomCase Draw(std::mt19937_64& rng, bool allow_credits) {
  RandomCase c;
  auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  c.input.budget.team = "t";
  c.input.budget.year = static_cast<int>(pick(2024, 2030));
  c.input.budget.month = static_cast<int>(pick(1, 12));
  c.input.budget.micro_amount = pick(0, 50'000'000'000);
  const absl::Time start = MonthStart(c.input.budget), end = MonthEnd(c.input.budget);
  // From two days before the month to two days after it, in whole hours.
  const int64_t hours = (end - start) / absl::Hours(1);
  c.input.through = start + absl::Hours(pick(-48, hours + 48));
  const absl::Time first_day = HistoryStart(c.input.budget, c.input.through);
  for (absl::Time day = first_day; day < c.input.through; day += absl::Hours(24)) {
    if (pick(0, 4) == 0) continue;  // a day without cost
    const int64_t cost = pick(allow_credits ? -2'000'000'000 : 0, 2'000'000'000);
    c.input.days.push_back({day, cost});
    if (day >= start && day < end) c.spent += cost;
  }
  std::shuffle(c.input.days.begin(), c.input.days.end(), rng);
  return c;
}

TEST(BudgetForecastProperties, RestNeverNegativeAndProjectionIsSpentPlusRest) {
  std::mt19937_64 rng(33);
  for (int i = 0; i < 3000; ++i) {
    const RandomCase c = Draw(rng, /*allow_credits=*/i % 3 == 0);
    absl::StatusOr<BudgetForecast> f = ForecastBudget(c.input);
    ASSERT_TRUE(f.ok()) << f.status();
    SCOPED_TRACE(f->method);
    EXPECT_GE(f->forecast_rest_micro, 0);
    EXPECT_EQ(f->projected_micro, f->spent_micro + f->forecast_rest_micro);
    EXPECT_GE(f->projected_micro, f->spent_micro);
    EXPECT_EQ(f->spent_micro, c.spent);
    if (c.input.through >= f->month_end) {
      EXPECT_EQ(f->forecast_rest_micro, 0);
    }
    const int64_t amount = c.input.budget.micro_amount;
    const char* status = f->spent_micro > amount ? "over" : f->projected_micro > amount ? "projected_over" : "under";
    EXPECT_EQ(f->status, status);
    EXPECT_FALSE(f->method.empty());
  }
}

TEST(BudgetForecastProperties, TwiceTheCostsForecastTwiceTheRestToTheRounding) {
  std::mt19937_64 rng(3333);
  for (int i = 0; i < 2000; ++i) {
    RandomCase c = Draw(rng, /*allow_credits=*/false);
    absl::StatusOr<BudgetForecast> once = ForecastBudget(c.input);
    for (DayCost& d : c.input.days) d.cost_micro *= 2;
    absl::StatusOr<BudgetForecast> twice = ForecastBudget(c.input);
    ASSERT_TRUE(once.ok() && twice.ok());
    EXPECT_EQ(twice->spent_micro, 2 * once->spent_micro);
    EXPECT_LE(std::abs(twice->forecast_rest_micro - 2 * once->forecast_rest_micro), 1) << once->method;
  }
}

}  // namespace
}  // namespace fleetcap::insights

#include "optimizer/insights/budget_forecast.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "policy/text_rules.h"

namespace fleetcap::insights {
namespace {

absl::Time DayOf(absl::Time t) {
  return absl::FromCivil(absl::ToCivilDay(t, absl::UTCTimeZone()), absl::UTCTimeZone());
}

std::string Date(absl::Time t) { return absl::FormatTime("%Y-%m-%d", t, absl::UTCTimeZone()); }

// A rate in words; one past int64 (a day's rate of an hour's huge cost) is named as such, never wrapped.
std::string Money(absl::int128 micro) {
  if (micro > std::numeric_limits<int64_t>::max()) return "more than 9223372036854.775807";
  if (micro < std::numeric_limits<int64_t>::min()) return "less than -9223372036854.775808";
  return policy::FormatDecimal(static_cast<int64_t>(micro), 6, 2);
}

// "24 days", "1 day 5 hours", "30 minutes": a span in the words of a planner.
std::string Span(absl::Duration d) {
  const int64_t minutes = absl::ToInt64Minutes(d);
  const int64_t days = minutes / (24 * 60), hours = minutes / 60 % 24, rest = minutes % 60;
  std::string out;
  auto add = [&](int64_t n, const char* unit) {
    if (n == 0) return;
    absl::StrAppend(&out, out.empty() ? "" : " ", n, " ", unit, n == 1 ? "" : "s");
  };
  add(days, "day");
  add(hours, "hour");
  add(rest, "minute");
  return out.empty() ? "no time" : out;
}

absl::StatusOr<int64_t> Narrow(absl::int128 v, const char* what) {
  if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min()) {
    return absl::OutOfRangeError(absl::StrCat("the budget's ", what, " passes the largest amount (int64 micro-units)"));
  }
  return static_cast<int64_t>(v);
}

// The cost of the days in [from, to).
absl::int128 CostOver(const std::vector<DayCost>& days, absl::Time from, absl::Time to) {
  absl::int128 sum = 0;
  for (const DayCost& d : days) {
    if (d.day >= from && d.day < to) sum += d.cost_micro;
  }
  return sum;
}

// The span whose cost sets the rate, and how it is named.
struct RateBasis {
  absl::Time from, to;
  absl::int128 cost = 0;
  std::string words;
};

// The lookback's complete days, from the first with a cost; or the hours of
// `through`'s day when the costs begin on it; nullopt without any cost.
std::optional<RateBasis> BasisOf(const std::vector<DayCost>& days, absl::Time through) {
  std::optional<absl::Time> first;
  for (const DayCost& d : days) {
    if (d.cost_micro != 0 && d.day < through && (!first || d.day < *first)) first = d.day;
  }
  if (!first) return std::nullopt;
  const absl::Time today = DayOf(through);
  RateBasis basis;
  if (*first < today) {
    basis.from = std::max(today - absl::Hours(24 * kBudgetLookbackDays), *first);
    basis.to = today;
    const int64_t n = (basis.to - basis.from) / absl::Hours(24);
    basis.words = absl::StrCat("the mean daily cost of the ", n, " complete UTC day", n == 1 ? "" : "s", " ",
                               Date(basis.from), n == 1 ? "" : absl::StrCat(" to ", Date(basis.to - absl::Hours(24))));
    if (basis.from == *first && n < kBudgetLookbackDays) basis.words += " (the first with a cost)";
  } else {
    basis.from = today;
    basis.to = through;
    basis.words = absl::StrCat("the cost of the ", Span(through - today), " of ", Date(today),
                               " so far (the first day with a cost), as a daily rate");
  }
  basis.cost = CostOver(days, basis.from, basis.to);
  return basis;
}

// cost x left / span, rounded half up; both spans whole seconds and span > 0.
absl::int128 Scaled(absl::int128 cost, absl::Duration left, absl::Duration span) {
  const absl::int128 num = cost * absl::ToInt64Seconds(left), den = absl::ToInt64Seconds(span);
  return (2 * num + den) / (2 * den);
}

std::string StatusOf(int64_t spent, int64_t projected, int64_t amount) {
  if (spent > amount) return "over";
  if (projected > amount) return "projected_over";
  return "under";
}

}  // namespace

absl::Time MonthStart(const policy::Budget& budget) {
  return absl::FromCivil(absl::CivilMonth(budget.year, budget.month), absl::UTCTimeZone());
}

absl::Time MonthEnd(const policy::Budget& budget) {
  return absl::FromCivil(absl::CivilMonth(budget.year, budget.month) + 1, absl::UTCTimeZone());
}

absl::Time HistoryStart(const policy::Budget& budget, absl::Time through) {
  return std::min(MonthStart(budget), DayOf(through) - absl::Hours(24 * kBudgetLookbackDays));
}

absl::StatusOr<BudgetForecast> ForecastBudget(const BudgetForecastInput& input) {
  BudgetForecast out;
  out.month_start = MonthStart(input.budget);
  out.month_end = MonthEnd(input.budget);
  out.through = std::clamp(input.through, out.month_start, out.month_end);
  out.amount_micro = input.budget.micro_amount;
  const absl::int128 spent = CostOver(input.days, out.month_start, out.through);
  absl::int128 rest = 0;
  const absl::Duration left = out.month_end - out.through;
  const std::optional<RateBasis> basis = BasisOf(input.days, input.through);
  const absl::Duration span = basis ? basis->to - basis->from : absl::ZeroDuration();
  if (left == absl::ZeroDuration()) {
    out.method = "the chargeback is computed through the month's end: nothing is left to forecast";
  } else if (!basis) {
    out.method = absl::StrCat("no cost before ", FormatRfc3339(input.through),
                              ": no history to forecast from, the rest is forecast at 0");
  } else if (basis->cost <= 0) {
    out.method = absl::StrCat(basis->words, ", ", Money(Scaled(basis->cost, absl::Hours(24), span)),
                              " a day: the rest is forecast at 0");
  } else {
    rest = Scaled(basis->cost, left, span);
    out.method = absl::StrCat(basis->words, ", ", Money(Scaled(basis->cost, absl::Hours(24), span)),
                              " a day, times the ", Span(left), " left in the month");
  }
  FLEETCAP_ASSIGN_OR_RETURN(out.spent_micro, Narrow(spent, "spend"));
  FLEETCAP_ASSIGN_OR_RETURN(out.forecast_rest_micro, Narrow(rest, "forecast"));
  FLEETCAP_ASSIGN_OR_RETURN(out.projected_micro, Narrow(spent + rest, "projection"));
  out.status = StatusOf(out.spent_micro, out.projected_micro, out.amount_micro);
  return out;
}

}  // namespace fleetcap::insights

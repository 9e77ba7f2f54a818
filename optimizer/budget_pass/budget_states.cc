#include "optimizer/budget_pass/budget_states.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "common/status_macros.h"

namespace fleetcap::budgets {
namespace {

using TeamDays = std::map<std::string, std::map<absl::Time, int64_t>>;  // team -> day -> cost

std::vector<std::string> SubtreeOf(const policy::PolicyDocument& policy, const std::string& team) {
  std::vector<std::string> teams = policy::Subtree(policy, team);
  if (teams.empty()) teams = {team};
  return teams;
}

// Adds the cost of `teams` per day over [start, end) to `out`.
absl::Status ReadDays(const store::ChargebackReadRepository& lines, const std::vector<std::string>& teams,
                      absl::Time start, absl::Time end, TeamDays& out) {
  if (start >= end) return absl::OkStatus();
  store::ChargebackFilter filter;
  filter.start = start;
  filter.end = end;
  filter.teams = teams;
  store::ChargebackGroupBy by_team;
  by_team.team = true;
  FLEETCAP_ASSIGN_OR_RETURN(auto sums, lines.Lines(filter, by_team, store::ChargebackResolution::kDay));
  for (const store::ChargebackSum& s : sums) {
    FLEETCAP_RETURN_IF_ERROR(store::AddChecked(s.total_cost_micro, &out[s.team][s.start], "budget spend"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<insights::DayCost>> SubtreeDays(const TeamDays& costs,
                                                           const std::vector<std::string>& teams) {
  std::map<absl::Time, int64_t> days;
  for (const std::string& team : teams) {
    auto it = costs.find(team);
    if (it == costs.end()) continue;
    for (const auto& [day, cost] : it->second) {
      FLEETCAP_RETURN_IF_ERROR(store::AddChecked(cost, &days[day], "budget spend"));
    }
  }
  std::vector<insights::DayCost> out;
  for (const auto& [day, cost] : days) out.push_back({day, cost});
  return out;
}

}  // namespace

absl::Time SpentThrough(absl::Time at, std::optional<absl::Time> watermark) {
  const absl::Time month_start = absl::FromCivil(absl::ToCivilMonth(at, absl::UTCTimeZone()), absl::UTCTimeZone());
  const absl::Time hour = absl::UnixEpoch() + absl::Floor(at - absl::UnixEpoch(), absl::Hours(1));
  return std::min(hour, watermark.value_or(month_start));
}

std::vector<policy::Budget> BudgetsOfMonth(const policy::PolicyDocument& policy, absl::Time at) {
  const absl::CivilMonth month = absl::ToCivilMonth(at, absl::UTCTimeZone());
  std::vector<policy::Budget> out;
  for (const policy::Budget& b : policy.budgets) {
    if (b.year == month.year() && b.month == month.month()) out.push_back(b);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.team < b.team; });
  return out;
}

absl::StatusOr<std::vector<BudgetState>> ForecastBudgets(const store::ChargebackReadRepository& lines,
                                                         const policy::PolicyDocument& policy,
                                                         const std::vector<policy::Budget>& budgets,
                                                         absl::Time through) {
  if (budgets.empty()) return std::vector<BudgetState>{};
  std::set<std::string> teams;
  absl::Time start = through;
  for (const policy::Budget& b : budgets) {
    for (std::string& t : SubtreeOf(policy, b.team)) teams.insert(std::move(t));
    start = std::min(start, insights::HistoryStart(b, through));
  }
  const std::vector<std::string> team_list(teams.begin(), teams.end());
  // Whole days from the daily rollup, the day in progress from its hours.
  const absl::Time today = store::DayStart(through);
  TeamDays costs;
  FLEETCAP_RETURN_IF_ERROR(ReadDays(lines, team_list, start, today, costs));
  FLEETCAP_RETURN_IF_ERROR(ReadDays(lines, team_list, today, through, costs));
  std::vector<BudgetState> out;
  for (const policy::Budget& b : budgets) {
    insights::BudgetForecastInput input;
    input.budget = b;
    input.through = through;
    FLEETCAP_ASSIGN_OR_RETURN(input.days, SubtreeDays(costs, SubtreeOf(policy, b.team)));
    FLEETCAP_ASSIGN_OR_RETURN(insights::BudgetForecast forecast, insights::ForecastBudget(input));
    out.push_back({b, std::move(forecast)});
  }
  return out;
}

}  // namespace fleetcap::budgets

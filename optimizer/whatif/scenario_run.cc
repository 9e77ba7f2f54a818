#include "optimizer/whatif/scenario_run.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/allocation/demand_document.h"
#include "optimizer/allocation/policy_engine.h"
#include "optimizer/allocation/policy_problem.h"
#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/price_schedule.h"
#include "optimizer/whatif/policy_patch.h"
#include "optimizer/whatif/scenario_parser.h"
#include "policy/yaml_reader.h"

namespace fleetcap::whatif {
namespace {

using Int128 = attribution::Int128;
using Key = std::pair<std::string, std::string>;  // (team, flavor)

constexpr int64_t kHour = 3600;

int64_t Seconds(absl::Time t) { return absl::ToUnixSeconds(t); }
absl::Time HourFloor(absl::Time t) { return absl::FromUnixSeconds(Seconds(t) / kHour * kHour); }
absl::Time DayOf(absl::Time t) { return absl::FromUnixSeconds(Seconds(t) / 86400 * 86400); }

// The first instant of the calendar month after `t` (UTC).
absl::Time NextMonth(absl::Time t) {
  const absl::CivilSecond c = absl::ToCivilSecond(t, absl::UTCTimeZone());
  return absl::FromCivil(absl::CivilMonth(c) + 1, absl::UTCTimeZone());
}

// value x factor (micro-units), rounded down.
int64_t Scaled(int64_t value, int64_t factor_micro) {
  return static_cast<int64_t>(static_cast<Int128>(value) * factor_micro / 1'000'000);
}

// The factor of the first matching demand entry, most specific first: team
// and flavor, then team on every flavor; none when no entry scales it.
std::optional<int64_t> DemandFactor(const std::vector<DemandScale>& scales, const std::string& team,
                                    const std::string& flavor) {
  for (const auto& s : scales) {
    if (s.team == team && !s.flavor.empty() && s.flavor == flavor) return s.factor_micro;
  }
  for (const auto& s : scales) {
    if (s.team == team && s.flavor.empty()) return s.factor_micro;
  }
  return std::nullopt;
}

const policy::Flavor* FindFlavor(const policy::PolicyDocument& p, const std::string& name) {
  for (const auto& f : p.flavors) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// Every team and flavor the scenario names must be the policy's.
absl::Status CheckNames(const ScenarioDocument& s, const PolicyInUse& p) {
  std::vector<policy::PolicyError> errors;
  const std::string which = p.version == 0 ? "the patched policy" : absl::StrCat("policy version ", p.version);
  auto flavor = [&](const std::string& name, int line, const std::string& field) {
    if (FindFlavor(p.document, name) == nullptr) {
      errors.push_back({line, 0, field, absl::StrCat("unknown flavor \"", name, "\" (not in ", which, ")")});
    }
  };
  for (size_t i = 0; i < s.capacity.size(); ++i) {
    flavor(s.capacity[i].flavor, s.capacity[i].line, policy::Index("capacity", i) + ".flavor");
  }
  std::set<std::string> teams;
  for (const auto& t : p.document.teams) teams.insert(t.name);
  for (size_t i = 0; i < s.demand.size(); ++i) {
    if (teams.count(s.demand[i].team) == 0) {
      errors.push_back({s.demand[i].line, 0, policy::Index("demand", i) + ".team",
                        absl::StrCat("unknown team \"", s.demand[i].team, "\" (not in ", which, ")")});
    }
    if (!s.demand[i].flavor.empty()) {
      flavor(s.demand[i].flavor, s.demand[i].line, policy::Index("demand", i) + ".flavor");
    }
  }
  for (size_t i = 0; i < s.prices.size(); ++i) {
    flavor(s.prices[i].flavor, s.prices[i].line, policy::Index("prices", i) + ".flavor");
  }
  return ScenarioErrors(errors);
}

// The capacity of one flavor at each hour of [start, start + hours): the
// policy's, changed by every change in force by then, never below zero.
std::vector<int64_t> CapacityHours(int64_t base_milli, const std::vector<CapacityChange>& changes,
                                   const std::string& flavor, absl::Time start, int64_t hours) {
  std::vector<int64_t> out(static_cast<size_t>(hours), base_milli);
  for (const auto& c : changes) {
    if (c.flavor != flavor) continue;
    const int64_t first = std::max<int64_t>(0, (Seconds(c.from) - Seconds(start) + kHour - 1) / kHour);
    for (int64_t h = first; h < hours; ++h) out[static_cast<size_t>(h)] += c.delta_milli;
  }
  for (auto& v : out) v = std::max<int64_t>(v, 0);
  return out;
}

int64_t CapacityAt(int64_t base_milli, const std::vector<CapacityChange>& changes, const std::string& flavor,
                   absl::Time at) {
  int64_t c = base_milli;
  for (const auto& change : changes) {
    if (change.flavor == flavor && change.from <= at) c += change.delta_milli;
  }
  return std::max<int64_t>(c, 0);
}

// The price of a device-hour of `flavor` at each hour of [start, start + hours):
// the policy's timeline, then the scenario's changes (the latest `from` wins).
std::vector<int64_t> PriceHours(const policy::PolicyDocument& p, const policy::Flavor& flavor,
                                const std::vector<PriceChange>& changes, absl::Time start, int64_t hours) {
  const std::string cluster = flavor.cluster.find_first_of("*?") == std::string::npos ? flavor.cluster : "";
  const auto timeline = attribution::PriceTimeline(p.prices, flavor.model, cluster);
  std::vector<int64_t> out(static_cast<size_t>(hours), 0);
  for (int64_t h = 0; h < hours; ++h) {
    const int64_t t = Seconds(start) + h * kHour;
    for (const auto& period : timeline) {
      if (period.from <= t && t < period.to) out[static_cast<size_t>(h)] = period.micro_per_device_hour;
    }
  }
  std::vector<const PriceChange*> ordered;
  for (const auto& c : changes) {
    if (c.flavor == flavor.name) ordered.push_back(&c);
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const PriceChange* a, const PriceChange* b) { return a->from < b->from; });
  for (const PriceChange* c : ordered) {
    const int64_t first = std::max<int64_t>(0, (Seconds(c->from) - Seconds(start) + kHour - 1) / kHour);
    for (int64_t h = first; h < hours; ++h) out[static_cast<size_t>(h)] = c->micro_per_device_hour;
  }
  return out;
}

// The held history and waiting pods with the scenario's demand factors
// applied (the first matching entry, most specific first: team and flavor,
// then team on every flavor).
struct Demand {
  std::vector<allocation::HeldHour> held;
  std::vector<allocation::PendingPod> pending;
};

Demand ScaledDemand(const PlanningState& state, const policy::PolicyDocument& p,
                    const std::vector<DemandScale>& scales) {
  Demand d{state.held, state.pending};
  if (scales.empty()) return d;
  auto factor = [&](const std::string& team, const std::string& cluster,
                    const std::string& model) -> std::optional<int64_t> {
    const std::optional<std::string> flavor = allocation::FlavorOf(p, cluster, model);
    return DemandFactor(scales, team, flavor ? *flavor : std::string());
  };
  for (auto& h : d.held) {
    if (auto f = factor(h.team, h.cluster, h.model)) h.held_milli_seconds = Scaled(h.held_milli_seconds, *f);
  }
  for (auto& pod : d.pending) {
    if (auto f = factor(pod.team, pod.cluster, pod.model)) pod.requested_milli = Scaled(pod.requested_milli, *f);
  }
  return d;
}

// Hourly held milli-devices per (team, flavor), oldest first, over the state's history.
std::map<Key, std::vector<int64_t>> HeldSeries(const PlanningState& state, const policy::PolicyDocument& p,
                                               const std::vector<allocation::HeldHour>& held) {
  std::map<Key, std::vector<int64_t>> series;
  const absl::Time start = state.history_end - absl::Hours(state.history_hours);
  for (const auto& h : held) {
    if (h.hour < start || h.hour >= state.history_end) continue;
    const std::optional<std::string> flavor = allocation::FlavorOf(p, h.cluster, h.model);
    if (!flavor) continue;
    auto& s = series[{h.team, *flavor}];
    s.resize(static_cast<size_t>(state.history_hours), 0);
    s[static_cast<size_t>((Seconds(h.hour) - Seconds(start)) / kHour)] += h.held_milli_seconds / kHour;
  }
  return series;
}

absl::StatusOr<std::vector<allocation::Recommendation>> Recommend(const PlanningState& state, policy::PolicyDocument p,
                                                                  const Demand& demand,
                                                                  const std::vector<CapacityChange>& changes,
                                                                  absl::Time at) {
  for (auto& f : p.flavors) f.capacity_milli = CapacityAt(f.capacity_milli, changes, f.name, at);
  const allocation::MeasuredDemandSet measured =
      allocation::MeasureDemand(p, state.history_end, demand.held, demand.pending, state.demand_options);
  allocation::DemandDocument declared;
  for (const auto& d : measured.demand) declared.demand.push_back({d.team, d.flavor, d.demand_milli, 0});
  const allocation::PolicyProblem problem = allocation::BuildPolicyProblem(p, declared);
  if (!problem.errors.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("allocation: ", policy::FormatPolicyErrors("policy", problem.errors.policy),
                     policy::FormatPolicyErrors("measured demand", problem.errors.demand)));
  }
  return allocation::RecommendPolicyProblem(p, problem.problem, allocation::EngineForPolicy(p));
}

// Where the projected month and the horizon sit in hours after the history's end.
struct Window {
  int64_t month_offset = 0;  // hours from history_end to month_start
  int64_t month_hours = 0;
  int64_t horizon_hours = 0;  // from history_end to horizon_end
};

// The first hour (from `from`) where `demand` exceeds `capacity`, as its UTC day.
std::optional<absl::Time> FirstExceeding(const std::vector<int64_t>& demand, const std::vector<int64_t>& capacity,
                                         int64_t pending_milli, int64_t from, absl::Time history_end) {
  for (size_t h = static_cast<size_t>(from); h < demand.size() && h < capacity.size(); ++h) {
    if (demand[h] + pending_milli > capacity[h]) {
      return DayOf(history_end + absl::Hours(static_cast<int64_t>(h)));
    }
  }
  return std::nullopt;
}

// Projections of one RunScenario, by series: the baseline and the scenario
// share every series the scenario does not change, and fitting a seasonal
// model is the expensive part of a run.
class Projections {
 public:
  Projections(const HeldForecaster* forecaster, int64_t horizon_hours)
      : forecaster_(forecaster), horizon_hours_(horizon_hours) {}

  const HeldProjection& Of(const std::vector<int64_t>& history) {
    auto it = done_.find(history);
    if (it == done_.end()) it = done_.emplace(history, ProjectHeld(forecaster_, history, horizon_hours_)).first;
    return it->second;
  }

 private:
  const HeldForecaster* forecaster_;
  int64_t horizon_hours_;
  std::map<std::vector<int64_t>, HeldProjection> done_;
};

struct SideInputs {
  const PlanningState* state;
  const PolicyInUse* policy;
  const std::vector<CapacityChange>* capacity;
  const std::vector<PriceChange>* prices;
  const std::vector<DemandScale>* scales;  // applied to the stored forecast
  Demand demand;
};

// Money as numerators in milli-devices x micro-units per device-hour, split at the end.
struct MonthMoney {
  std::map<std::string, Int128> team_numerator;
  std::map<std::string, int64_t> team_held;
  Int128 idle_numerator = 0, total_numerator = 0;
};

// One flavor's month, hour by hour: each team's projected holding (within
// capacity) priced into `money`, and the flavor's held and capacity hours.
void AddFlavorMonth(const std::vector<std::pair<std::string, std::vector<int64_t>>>& teams,
                    const std::vector<int64_t>& capacity, const std::vector<int64_t>& price, const Window& w,
                    MonthMoney& money, FlavorOutlook& outlook) {
  for (int64_t h = 0; h < w.month_hours; ++h) {
    const size_t hi = static_cast<size_t>(h);
    const int64_t cap = capacity[static_cast<size_t>(w.month_offset + h)];
    std::vector<Int128> held(teams.size());
    Int128 sum = 0;
    for (size_t t = 0; t < teams.size(); ++t) sum += held[t] = teams[t].second[hi];
    // No one holds more than there is: past capacity, it is shared in proportion.
    if (sum > cap) {
      std::vector<Int128> capped;
      attribution::Apportion(cap, held, &capped);
      held = std::move(capped);
      sum = cap;
    }
    for (size_t t = 0; t < teams.size(); ++t) {
      money.team_numerator[teams[t].first] += held[t] * price[hi];
      money.team_held[teams[t].first] += static_cast<int64_t>(held[t]);
    }
    money.idle_numerator += (cap - sum) * price[hi];
    money.total_numerator += static_cast<Int128>(cap) * price[hi];
    outlook.held_milli_hours += static_cast<int64_t>(sum);
    outlook.capacity_milli_hours += cap;
  }
  outlook.utilisation_ppm = outlook.capacity_milli_hours == 0
                                ? 0
                                : static_cast<int64_t>(static_cast<Int128>(outlook.held_milli_hours) * 1'000'000 /
                                                       outlook.capacity_milli_hours);
}

// Teams' lines and the idle line, split from the fleet's cost so they add up to it exactly.
void SplitMonthMoney(const MonthMoney& money, ScenarioSide& side) {
  const Int128 total_micro = money.total_numerator / 1000;
  std::vector<Int128> weights, parts;
  for (const auto& [team, numerator] : money.team_numerator) weights.push_back(numerator);
  weights.push_back(money.idle_numerator);
  attribution::Apportion(total_micro, weights, &parts);
  size_t i = 0;
  for (const auto& [team, numerator] : money.team_numerator) {
    side.bills.push_back({team, static_cast<int64_t>(parts[i++]), money.team_held.at(team), {}});
  }
  side.idle_micro = static_cast<int64_t>(parts[i]);
  side.total_micro = static_cast<int64_t>(total_micro);
}

// Each team's projected p50 over the month, per flavor, and the series
// counted per model that projected them.
struct MonthProjection {
  std::map<std::string, std::vector<std::pair<std::string, std::vector<int64_t>>>> by_flavor;
  std::map<std::string, std::set<std::string>> unknown;  // flavor -> teams no stored forecast covers
  std::map<std::string, int64_t> models;
};

// The month projected here from each series' held history.
MonthProjection ProjectedMonth(const std::map<Key, std::vector<int64_t>>& series, const Window& w,
                               Projections& projections) {
  MonthProjection out;
  for (const auto& [key, history] : series) {
    const HeldProjection& projection = projections.Of(history);
    ++out.models[projection.model];
    std::vector<int64_t> month(projection.p50_milli.begin() + w.month_offset,
                               projection.p50_milli.begin() + w.month_offset + w.month_hours);
    for (auto& v : month) v = std::max<int64_t>(v, 0);
    out.by_flavor[key.second].emplace_back(key.first, std::move(month));
  }
  return out;
}

// The month as the stored forecast has it: every team's stored series of a
// flavor of the policy, and every series with held history, each scaled by
// the side's demand factors. A series the run does not hold, or holds for
// fewer hours than the month needs, is unknown.
MonthProjection StoredMonth(const StoredForecast& forecast, const std::map<Key, std::vector<int64_t>>& history,
                            const policy::PolicyDocument& p, const std::vector<DemandScale>& scales,
                            absl::Time month_start, int64_t month_hours) {
  std::set<Key> keys;
  for (const auto& [key, unused] : history) keys.insert(key);
  for (const auto& [key, unused] : forecast.held) {
    if (!key.first.empty() && FindFlavor(p, key.second) != nullptr) keys.insert(key);
  }
  const int64_t offset = (Seconds(month_start) - Seconds(forecast.forecast_start)) / kHour;
  MonthProjection out;
  for (const Key& key : keys) {
    auto it = forecast.held.find(key);
    if (it == forecast.held.end() || offset < 0 ||
        static_cast<int64_t>(it->second.p50_milli.size()) < offset + month_hours) {
      out.unknown[key.second].insert(key.first);
      continue;
    }
    ++out.models[it->second.model];
    const auto first = it->second.p50_milli.begin() + offset;
    std::vector<int64_t> month(first, first + month_hours);
    const std::optional<int64_t> factor = DemandFactor(scales, key.first, key.second);
    for (auto& v : month) v = std::max<int64_t>(factor ? Scaled(v, *factor) : v, 0);
    out.by_flavor[key.second].emplace_back(key.first, std::move(month));
  }
  return out;
}

// The flavor's total demand from `history_end` on as the stored run has it
// (p50 and p90), with each team's part scaled by the side's demand factors;
// none when the run has no total for the flavor or starts after `history_end`.
std::optional<HeldProjection> StoredTotal(const StoredForecast& forecast, const std::string& flavor,
                                          const std::vector<DemandScale>& scales, absl::Time history_end) {
  auto total = forecast.held.find({"", flavor});
  const int64_t shift = (Seconds(history_end) - Seconds(forecast.forecast_start)) / kHour;
  if (total == forecast.held.end() || shift < 0) return std::nullopt;
  HeldProjection out;
  out.model = total->second.model;
  auto from = [shift](const std::vector<int64_t>& v) {
    return shift < static_cast<int64_t>(v.size()) ? std::vector<int64_t>(v.begin() + shift, v.end())
                                                  : std::vector<int64_t>();
  };
  out.p50_milli = from(total->second.p50_milli);
  out.p90_milli = from(total->second.p90_milli);
  for (const auto& [key, series] : forecast.held) {
    if (key.first.empty() || key.second != flavor) continue;
    const std::optional<int64_t> factor = DemandFactor(scales, key.first, flavor);
    if (!factor) continue;
    const std::vector<int64_t> p50 = from(series.p50_milli), p90 = from(series.p90_milli);
    for (size_t h = 0; h < p50.size() && h < out.p50_milli.size(); ++h)
      out.p50_milli[h] += Scaled(p50[h], *factor) - p50[h];
    for (size_t h = 0; h < p90.size() && h < out.p90_milli.size(); ++h)
      out.p90_milli[h] += Scaled(p90[h], *factor) - p90[h];
  }
  for (auto& v : out.p50_milli) v = std::max<int64_t>(v, 0);
  for (auto& v : out.p90_milli) v = std::max<int64_t>(v, 0);
  return out;
}

absl::StatusOr<ScenarioSide> RunSide(const SideInputs& in, const ScenarioComparison& frame, const Window& w,
                                     Projections& projections) {
  const PlanningState& state = *in.state;
  const policy::PolicyDocument& p = in.policy->document;
  ScenarioSide side;
  side.policy_version = in.policy->version;
  FLEETCAP_ASSIGN_OR_RETURN(side.recommendations,
                            Recommend(state, p, in.demand, *in.capacity, frame.recommendations_at));

  const std::map<Key, std::vector<int64_t>> series = HeldSeries(state, p, in.demand.held);
  MonthProjection month;
  if (state.forecast) {
    month = StoredMonth(*state.forecast, series, p, *in.scales, frame.month_start, w.month_hours);
    side.forecast_run_id = state.forecast->run_id;
  } else {
    month = ProjectedMonth(series, w, projections);
  }
  const int64_t now_offset = std::max<int64_t>(0, (Seconds(state.now) - Seconds(state.history_end)) / kHour);
  const allocation::MeasuredDemandSet pending_only =
      allocation::MeasureDemand(p, state.history_end, {}, in.demand.pending, state.demand_options);

  MonthMoney money;
  for (const policy::Flavor& f : p.flavors) {
    FlavorOutlook outlook;
    outlook.flavor = f.name;
    outlook.capacity_milli = CapacityAt(f.capacity_milli, *in.capacity, f.name, frame.recommendations_at);
    const std::vector<int64_t> capacity =
        CapacityHours(f.capacity_milli, *in.capacity, f.name, state.history_end, w.horizon_hours);
    const std::vector<int64_t> price = PriceHours(p, f, *in.prices, frame.month_start, w.month_hours);
    const auto& teams = month.by_flavor[f.name];
    AddFlavorMonth(teams, capacity, price, w, money, outlook);
    for (const std::string& team : month.unknown[f.name]) {
      money.team_numerator[team] += 0;  // a bill line for the team, marked unknown below
      money.team_held[team] += 0;
      outlook.held_unknown = true;
    }
    // Demand of the flavor as a whole: its total held history projected, plus what waits now.
    std::vector<int64_t> total(static_cast<size_t>(state.history_hours), 0);
    bool any = false;
    for (const auto& [key, history] : series) {
      if (key.second != f.name) continue;
      any = true;
      for (size_t h = 0; h < history.size(); ++h) total[h] += history[h];
    }
    int64_t pending_milli = 0;
    for (const auto& d : pending_only.demand) {
      if (d.flavor == f.name) pending_milli += d.pending_milli;
    }
    std::optional<HeldProjection> stored_total;
    if (state.forecast) stored_total = StoredTotal(*state.forecast, f.name, *in.scales, state.history_end);
    const HeldProjection& projection = stored_total ? *stored_total : projections.Of(total);
    outlook.model = any || stored_total ? projection.model : kRecentAverageModel;
    outlook.exhausted_p50 =
        FirstExceeding(projection.p50_milli, capacity, pending_milli, now_offset, state.history_end);
    outlook.exhausted_p90 =
        FirstExceeding(projection.p90_milli, capacity, pending_milli, now_offset, state.history_end);
    side.flavors.push_back(std::move(outlook));
  }

  SplitMonthMoney(money, side);
  for (TeamBill& bill : side.bills) {
    for (const auto& [flavor, teams] : month.unknown) {
      if (teams.count(bill.team) > 0) bill.unknown_flavors.push_back(flavor);
    }
  }
  for (const auto& [model, n] : month.models) side.projection_models.emplace_back(model, n);
  return side;
}

}  // namespace

absl::StatusOr<ScenarioComparison> RunScenario(const PlanningState& state, const ScenarioDocument& scenario,
                                               const HeldForecaster* forecaster) {
  if (state.history_hours < 0 || state.history_end != HourFloor(state.history_end)) {
    return absl::InvalidArgumentError("planning state: history_end must be a whole hour and history_hours >= 0");
  }
  FLEETCAP_ASSIGN_OR_RETURN(const PolicyInUse baseline_policy, ActivePolicy(state));
  FLEETCAP_ASSIGN_OR_RETURN(const PolicyInUse scenario_policy, ScenarioPolicy(state, scenario));
  FLEETCAP_RETURN_IF_ERROR(CheckNames(scenario, scenario_policy));

  ScenarioComparison c;
  c.recommendations_at = state.now;
  for (const auto& change : scenario.capacity) c.recommendations_at = std::max(c.recommendations_at, change.from);
  c.month_start = NextMonth(state.now);
  c.month_end = NextMonth(c.month_start);
  c.horizon_end = HourFloor(state.now) + absl::Hours(24 * kHorizonDays);
  c.currency = scenario_policy.document.currency;

  Window w;
  w.month_offset = (Seconds(c.month_start) - Seconds(state.history_end)) / kHour;
  w.month_hours = (Seconds(c.month_end) - Seconds(c.month_start)) / kHour;
  w.horizon_hours =
      std::max((Seconds(c.horizon_end) - Seconds(state.history_end)) / kHour, w.month_offset + w.month_hours);
  if (w.month_offset < 0) {
    return absl::InvalidArgumentError("planning state: history_end is after the projected month's start");
  }

  const std::vector<CapacityChange> no_capacity;
  const std::vector<PriceChange> no_prices;
  const std::vector<DemandScale> no_scales;
  SideInputs base{&state, &baseline_policy, &no_capacity, &no_prices, &no_scales, {state.held, state.pending}};
  Projections projections(forecaster, w.horizon_hours);
  FLEETCAP_ASSIGN_OR_RETURN(c.baseline, RunSide(base, c, w, projections));
  SideInputs changed{
      &state,           &scenario_policy, &scenario.capacity,
      &scenario.prices, &scenario.demand, ScaledDemand(state, scenario_policy.document, scenario.demand)};
  FLEETCAP_ASSIGN_OR_RETURN(c.scenario, RunSide(changed, c, w, projections));
  return c;
}

}  // namespace fleetcap::whatif

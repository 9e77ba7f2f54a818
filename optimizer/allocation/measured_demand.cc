#include "optimizer/allocation/measured_demand.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "absl/numeric/int128.h"
#include "absl/strings/str_cat.h"
#include "optimizer/allocation/allocation_problem.h"
#include "policy/text_rules.h"

namespace fleetcap::allocation {
namespace {

// A lookback longer than this would keep more history than anyone plans on,
// and keeps the trend's sums far inside int128.
constexpr int64_t kMaxLookbackHours = 90 * 24;

int64_t Clamp(absl::int128 v) {
  return static_cast<int64_t>(std::min<absl::int128>(std::max<absl::int128>(v, 0), kMaxMilli));
}

std::string DevicesToTheMilli(int64_t milli) { return policy::FormatDecimal(milli, 3, 3); }

bool WholeHours(absl::Duration d) { return d % absl::Hours(1) == absl::ZeroDuration(); }

// What is known of one team on one flavor while the inputs are read.
struct Pieces {
  HourlySeries held;  // held milli-seconds per hour until Measure turns them into milli-devices
  int64_t pending_milli = 0;
  int64_t pending_pods = 0;
  absl::Duration longest_wait;
  std::optional<int64_t> declared_milli;
};

}  // namespace

absl::Status ValidateMeasuredDemandOptions(const MeasuredDemandOptions& o) {
  if (o.lookback < absl::Hours(1) || o.lookback > absl::Hours(kMaxLookbackHours) || !WholeHours(o.lookback)) {
    return absl::InvalidArgumentError(absl::StrCat("lookback: ", absl::FormatDuration(o.lookback),
                                                   " (expected whole hours from 1h to ", kMaxLookbackHours, "h)"));
  }
  if (o.percentile < 1 || o.percentile > 100) {
    return absl::InvalidArgumentError(absl::StrCat("percentile: ", o.percentile, " (expected 1 to 100)"));
  }
  if (o.trend_horizon < absl::ZeroDuration() || o.trend_horizon > absl::Hours(kMaxLookbackHours) ||
      !WholeHours(o.trend_horizon)) {
    return absl::InvalidArgumentError(absl::StrCat("trend horizon: ", absl::FormatDuration(o.trend_horizon),
                                                   " (expected whole hours from 0h to ", kMaxLookbackHours, "h)"));
  }
  if (o.pending_full_weight < absl::Seconds(1) || o.pending_full_weight > absl::Hours(kMaxLookbackHours)) {
    return absl::InvalidArgumentError(absl::StrCat("pending full weight: ", absl::FormatDuration(o.pending_full_weight),
                                                   " (expected from 1s to ", kMaxLookbackHours, "h)"));
  }
  return absl::OkStatus();
}

std::optional<std::string> FlavorOf(const policy::PolicyDocument& policy, const std::string& cluster,
                                    const std::string& model) {
  std::optional<std::string> found;
  for (const policy::Flavor& f : policy.flavors) {
    if (!policy::GlobMatch(f.cluster, cluster)) continue;
    if (!model.empty()) {
      if (f.model == model) return f.name;
      continue;
    }
    if (found) return std::nullopt;  // a pod that selects no model fits several flavors: none is its
    found = f.name;
  }
  return found;
}

int64_t PercentileNearestRank(const HourlySeries& series, int percentile) {
  if (series.hours <= 0) return 0;
  std::vector<int64_t> nonzero;
  for (const auto& [hour, v] : series.values) {
    if (v != 0) nonzero.push_back(v);
  }
  std::sort(nonzero.begin(), nonzero.end());
  // rank = ceil(p * n / 100), 1-based, among n values of which the rest are 0.
  const int64_t rank = std::max<int64_t>(1, (static_cast<int64_t>(percentile) * series.hours + 99) / 100);
  const int64_t zeros = series.hours - static_cast<int64_t>(nonzero.size());
  return rank <= zeros ? 0 : nonzero[static_cast<size_t>(rank - zeros - 1)];
}

int64_t TrendOver(const HourlySeries& series, int64_t horizon_hours) {
  const absl::int128 n = series.hours;
  if (n < 2 || horizon_hours <= 0) return 0;
  // Least squares over t = 0..n-1: slope = (n Σth - Σt Σh) / (n Σt² - (Σt)²),
  // with Σt and Σt² in closed form, so hours without a value cost nothing.
  const absl::int128 st = n * (n - 1) / 2;
  const absl::int128 stt = (n - 1) * n * (2 * n - 1) / 6;
  absl::int128 sh = 0, sth = 0;
  for (const auto& [t, h] : series.values) {
    sh += h;
    sth += static_cast<absl::int128>(t) * h;
  }
  const absl::int128 num = n * sth - st * sh;
  const absl::int128 den = n * stt - st * st;  // > 0 for n >= 2
  if (num <= 0) return 0;
  return Clamp(num * horizon_hours / den);
}

int64_t PendingWeighted(int64_t requested_milli, absl::Duration waited, absl::Duration full) {
  if (requested_milli <= 0 || waited <= absl::ZeroDuration() || full <= absl::ZeroDuration()) return 0;
  const int64_t full_s = std::max<int64_t>(1, absl::ToInt64Seconds(full));
  const int64_t waited_s = std::min(absl::ToInt64Seconds(waited), full_s);
  return Clamp(static_cast<absl::int128>(requested_milli) * waited_s / full_s);
}

int64_t HeadroomOf(int64_t measured_milli, int64_t percent) {
  if (measured_milli <= 0 || percent <= 0) return 0;
  return Clamp((static_cast<absl::int128>(measured_milli) * percent + 99) / 100);
}

namespace {

// One (team, flavor)'s demand from its pieces, with the formula that explains it.
MeasuredDemand MeasuredDemandOf(const std::string& team, const std::string& flavor, Pieces& p,
                                const MeasuredDemandOptions& options, int64_t headroom_percent) {
  const std::string p_label = absl::StrCat("p", options.percentile);
  const int64_t horizon_hours = options.trend_horizon / absl::Hours(1);
  // Held milli-seconds in an hour / 3600 = the hour's mean held milli-devices, rounded half up.
  for (auto& [hour, v] : p.held.values) v = std::min<int64_t>(v / 3600 + (v % 3600 >= 1800 ? 1 : 0), kMaxMilli);
  MeasuredDemand d;
  d.team = team;
  d.flavor = flavor;
  d.percentile_milli = PercentileNearestRank(p.held, options.percentile);
  d.trend_milli = TrendOver(p.held, horizon_hours);
  d.pending_milli = p.pending_milli;
  d.pending_pods = p.pending_pods;
  d.longest_wait = p.longest_wait;
  d.declared_milli = p.declared_milli;
  const int64_t measured = Clamp(static_cast<absl::int128>(d.percentile_milli) + d.trend_milli + d.pending_milli);
  std::string pods = absl::StrCat(d.pending_pods, d.pending_pods == 1 ? " pod" : " pods");
  if (d.pending_pods > 0)
    absl::StrAppend(&pods, ", longest ", absl::FormatDuration(absl::Trunc(d.longest_wait, absl::Minutes(1))));
  const std::string formula = absl::StrCat(
      p_label, " held ", DevicesToTheMilli(d.percentile_milli), " + trend ", DevicesToTheMilli(d.trend_milli),
      " + pending ", DevicesToTheMilli(d.pending_milli), " (", pods, ") = ", DevicesToTheMilli(measured), " devices");
  d.measured_milli = measured;
  if (d.declared_milli) {
    d.demand_milli = *d.declared_milli;
    d.explanation =
        absl::StrCat("declared ", DevicesToTheMilli(d.demand_milli), " devices in the policy (measured ", formula, ")");
  } else {
    d.headroom_milli = HeadroomOf(measured, headroom_percent);
    d.demand_milli = Clamp(static_cast<absl::int128>(measured) + d.headroom_milli);
    d.explanation = absl::StrCat(formula, "; + ", headroom_percent, "% headroom ", DevicesToTheMilli(d.headroom_milli),
                                 " = ", DevicesToTheMilli(d.demand_milli), " devices");
  }
  return d;
}

}  // namespace

MeasuredDemandSet MeasureDemand(const policy::PolicyDocument& policy, absl::Time end, const std::vector<HeldHour>& held,
                                const std::vector<PendingPod>& pending, const MeasuredDemandOptions& options) {
  MeasuredDemandSet out;
  std::set<std::string> teams, parents;
  for (const policy::Team& t : policy.teams) {
    teams.insert(t.name);
    if (!t.parent.empty()) parents.insert(t.parent);
  }
  auto leaf = [&](const std::string& team) { return teams.count(team) > 0 && parents.count(team) == 0; };
  std::set<std::string> flavors;
  for (const policy::Flavor& f : policy.flavors) flavors.insert(f.name);

  const int64_t hours = std::max<int64_t>(1, options.lookback / absl::Hours(1));
  const absl::Time start = end - absl::Hours(hours);
  std::map<std::pair<std::string, std::string>, Pieces> pieces;  // (team, flavor), in byte order
  auto at = [&](const std::string& team, const std::string& flavor) -> Pieces& {
    Pieces& p = pieces[{team, flavor}];
    p.held.hours = hours;
    return p;
  };

  for (const HeldHour& h : held) {
    if (h.hour < start || h.hour >= end || h.held_milli_seconds <= 0) continue;
    const std::optional<std::string> flavor = FlavorOf(policy, h.cluster, h.model);
    if (!leaf(h.team) || !flavor || h.model.empty()) {
      ++out.unplaced.held_hours;
      continue;
    }
    int64_t& sum = at(h.team, *flavor).held.values[(h.hour - start) / absl::Hours(1)];
    if (__builtin_add_overflow(sum, h.held_milli_seconds, &sum)) sum = std::numeric_limits<int64_t>::max();
  }
  for (const PendingPod& p : pending) {
    const std::optional<std::string> flavor = FlavorOf(policy, p.cluster, p.model);
    if (!leaf(p.team) || !flavor || p.requested_milli <= 0) {
      ++out.unplaced.pending_pods;
      continue;
    }
    Pieces& piece = at(p.team, *flavor);
    piece.pending_milli = Clamp(static_cast<absl::int128>(piece.pending_milli) +
                                PendingWeighted(p.requested_milli, p.waited, options.pending_full_weight));
    ++piece.pending_pods;
    piece.longest_wait = std::max(piece.longest_wait, p.waited);
  }
  for (const policy::AllocationRule& rule : policy.allocation) {
    if (!rule.demand_milli || !leaf(rule.team) || flavors.count(rule.flavor) == 0) continue;
    at(rule.team, rule.flavor).declared_milli = std::min(*rule.demand_milli, kMaxMilli);
  }

  for (auto& [key, p] : pieces) {
    out.demand.push_back(MeasuredDemandOf(key.first, key.second, p, options, policy.demand_headroom_percent));
  }
  return out;
}

}  // namespace fleetcap::allocation

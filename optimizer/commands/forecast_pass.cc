#include "optimizer/commands/forecast_pass.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "optimizer/allocation/measured_demand.h"
#include "optimizer/forecast/forecast.h"

namespace fleetcap::optimizer {
namespace {

// (flavor, team, what): team "" is the flavor's total.
using SeriesKey = std::tuple<std::string, std::string, std::string>;
// Milli-device-seconds per hour index of the history.
using HourSums = std::vector<int64_t>;

int64_t Periods(absl::Time t, absl::Duration interval) {
  return absl::ToInt64Seconds(t - absl::UnixEpoch()) / absl::ToInt64Seconds(interval);
}

// The sums of each key, `hours` long, created on first use.
class Accumulator {
 public:
  explicit Accumulator(int64_t hours) : hours_(hours) {}
  void Add(const SeriesKey& key, int64_t hour, int64_t milli_seconds) {
    if (hour < 0 || hour >= hours_ || milli_seconds <= 0) return;
    Ensure(key)[static_cast<size_t>(hour)] += milli_seconds;
  }
  HourSums& Ensure(const SeriesKey& key) {
    auto [it, fresh] = sums_.try_emplace(key);
    if (fresh) it->second.assign(static_cast<size_t>(hours_), 0);
    return it->second;
  }
  std::map<SeriesKey, HourSums>& sums() { return sums_; }

 private:
  int64_t hours_;
  std::map<SeriesKey, HourSums> sums_;
};

// Milli-device-seconds per hour as the milli-devices held on average.
std::vector<int64_t> MilliDevices(const HourSums& sums) {
  std::vector<int64_t> out(sums.size());
  for (size_t i = 0; i < sums.size(); ++i) out[i] = sums[i] / 3600;
  return out;
}

int64_t Milli(double v) { return v > 0 && std::isfinite(v) ? std::llround(v) : 0; }

absl::Time Midnight(absl::CivilDay day) { return absl::FromCivil(day, absl::UTCTimeZone()); }

// The team of each wait, resolved with the policy in force now.
absl::StatusOr<std::vector<std::string>> TeamsOfWaits(const std::vector<store::PendingWaitRecord>& waits,
                                                      const policy::TeamResolver& resolver,
                                                      store::TeamFactsRepository* teams) {
  std::vector<std::string> out;
  if (waits.empty()) return out;
  FLEETCAP_ASSIGN_OR_RETURN(auto namespaces, teams->Namespaces("", ""));
  for (const store::PendingWaitRecord& w : waits) {
    const policy::PodEvidence pod{w.pod.cluster, w.pod.namespace_name, w.pod.team_label};
    auto ns = namespaces.find({w.pod.cluster, w.pod.namespace_name});
    policy::NamespaceEvidence evidence;
    if (ns != namespaces.end()) evidence = {ns->second.labels, ns->second.annotations};
    out.push_back(resolver.TeamOf(pod, ns == namespaces.end() ? nullptr : &evidence));
  }
  return out;
}

}  // namespace

absl::Status ValidateForecastPassOptions(const ForecastPassOptions& o) {
  if (o.interval < absl::Hours(1) || o.interval % absl::Hours(1) != absl::ZeroDuration() ||
      o.interval > absl::Hours(24 * 31)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--forecast-interval: ", absl::FormatDuration(o.interval), " is not whole hours from 1h to 744h"));
  }
  if (o.lookback < absl::Hours(1) || o.lookback % absl::Hours(1) != absl::ZeroDuration() ||
      o.lookback > absl::Hours(store::kMaxForecastHours)) {
    return absl::InvalidArgumentError(absl::StrCat("--forecast-lookback: ", absl::FormatDuration(o.lookback),
                                                   " is not whole hours from 1h to 2160h (90 days)"));
  }
  if (o.horizon_hours < 1 || o.horizon_hours > store::kMaxForecastHours) {
    return absl::InvalidArgumentError(
        absl::StrCat("--forecast-horizon: ", o.horizon_hours, " hours is out of range (1h..2160h)"));
  }
  if (o.keep_runs < 2 || o.keep_runs > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("--forecast-keep-runs: ", o.keep_runs, " is out of range (2..1000)"));
  }
  if (o.max_pending_waits < 0) {
    return absl::InvalidArgumentError(absl::StrCat("max_pending_waits: negative (", o.max_pending_waits, ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<ForecastReport> ForecastPass::Run(std::optional<absl::Time> watermark) {
  ForecastReport report;
  const absl::Time now = clock_->Now();
  FLEETCAP_ASSIGN_OR_RETURN(auto latest, stores_.forecasts->LatestRun());
  if (latest && Periods(latest->computed_at, options_.interval) >= Periods(now, options_.interval)) {
    report.skipped = "done this interval";
    return report;
  }
  if (!watermark) {
    report.skipped = "no history yet";
    return report;
  }
  FLEETCAP_RETURN_IF_ERROR(stores_.policies->Refresh());
  const policy::PolicyInForce in_force = stores_.policies->At(now);
  if (in_force.version == 0) {
    report.skipped = "no policy";
    return report;
  }
  const policy::TeamResolver& resolver = *in_force.teams;
  const policy::PolicyDocument& policy = resolver.policy();

  const absl::Time end = *watermark;
  const absl::Time start = end - options_.lookback;
  const int64_t hours = options_.lookback / absl::Hours(1);
  auto hour_of = [&](absl::Time t) { return (t - start) / absl::Hours(1); };
  Accumulator acc(hours);

  // Held: the chargeback's lines, per team and the flavor's total.
  FLEETCAP_ASSIGN_OR_RETURN(auto held, stores_.history->HeldHours(start, end));
  for (const store::HeldHourRecord& h : held) {
    const std::optional<std::string> flavor = allocation::FlavorOf(policy, h.cluster, h.model);
    if (!flavor) continue;
    acc.Add({*flavor, h.team, "held"}, hour_of(h.hour), h.held_milli_seconds);
    acc.Add({*flavor, "", "held"}, hour_of(h.hour), h.held_milli_seconds);
  }
  // Pending: each wait's requested milli-devices over the part of each hour it waited.
  FLEETCAP_ASSIGN_OR_RETURN(auto waits, stores_.waits->Waits(start, end, options_.max_pending_waits));
  FLEETCAP_ASSIGN_OR_RETURN(auto wait_teams, TeamsOfWaits(waits, resolver, stores_.teams));
  for (size_t i = 0; i < waits.size(); ++i) {
    const store::PendingPodRecord& pod = waits[i].pod;
    const std::optional<std::string> flavor = allocation::FlavorOf(policy, pod.cluster, pod.model);
    if (!flavor) continue;
    const absl::Time from = std::max(pod.pending_from, start);
    const absl::Time to = std::min(waits[i].until.value_or(end), end);
    for (int64_t hour = hour_of(from); hour < hours && start + absl::Hours(hour) < to; ++hour) {
      const absl::Time hour_start = start + absl::Hours(hour);
      const int64_t seconds =
          absl::ToInt64Seconds(std::min(to, hour_start + absl::Hours(1)) - std::max(from, hour_start));
      acc.Add({*flavor, wait_teams[i], "pending"}, hour, pod.requested_milli * seconds);
      acc.Add({*flavor, "", "pending"}, hour, pod.requested_milli * seconds);
    }
  }
  // Capacity: the devices in service per flavor.
  store::CapacityFilter filter;
  filter.start = start;
  filter.end = end;
  FLEETCAP_ASSIGN_OR_RETURN(auto capacity, stores_.capacity->DeviceTime(filter));
  for (const store::CapacityPoint& p : capacity) {
    const std::optional<std::string> flavor = allocation::FlavorOf(policy, p.cluster, p.model);
    if (flavor) acc.Add({*flavor, "", "capacity"}, hour_of(p.start), p.milli_seconds);
  }
  // Every flavor of the policy has a total, even one that nothing held yet.
  for (const policy::Flavor& f : policy.flavors) {
    for (const char* what : {"held", "pending", "capacity"}) acc.Ensure({f.name, "", what});
  }

  store::ForecastRunDraft draft;
  draft.header.computed_at = now;
  draft.header.history_start = start;
  draft.header.forecast_start = end;
  draft.header.horizon_hours = options_.horizon_hours;
  std::map<std::string, int64_t> last_capacity;  // milli-devices in the history's last hour, per flavor
  for (auto& [key, sums] : acc.sums()) {
    if (std::get<2>(key) == "capacity") last_capacity[std::get<0>(key)] = sums.empty() ? 0 : sums.back() / 3600;
  }
  forecast::ForecastOptions forecast_options;
  forecast_options.horizon_hours = options_.horizon_hours;
  for (auto& [key, sums] : acc.sums()) {
    const auto& [flavor, team, what] = key;
    store::ForecastSeriesRecord s;
    s.flavor = flavor;
    s.team = team;
    s.what = what;
    s.history = MilliDevices(sums);
    if (what == "capacity") {
      // Devices are bought, not forecast: the last hour's capacity, held flat.
      s.model = "last_value";
      const int64_t last = last_capacity[flavor];
      s.p50.assign(static_cast<size_t>(options_.horizon_hours), last);
      s.p90 = s.p50;
      draft.series.push_back(std::move(s));
      continue;
    }
    forecast::HourlySeries series{start, std::vector<double>(s.history.begin(), s.history.end())};
    absl::StatusOr<forecast::Forecast> f = forecast::ForecastHourly(series, forecast_options);
    if (!f.ok()) {
      ++report.failed;
      Logger("optimizer")->warn("forecast of flavor {} team \"{}\" {}: {}", flavor, team, what, f.status().ToString());
      continue;
    }
    s.model = f->model_name;
    s.fallback_reason = f->fallback_reason;
    s.fit = {{"alpha", f->fit.alpha},
             {"beta", f->fit.beta},
             {"gamma", f->fit.gamma},
             {"season_points", static_cast<double>(f->fit.season_points)},
             {"points_used", static_cast<double>(f->fit.points_used)},
             {"in_sample_rmse", f->fit.in_sample_rmse},
             {"in_sample_mae", f->fit.in_sample_mae},
             {"in_sample_mase", f->fit.in_sample_mase}};
    s.p50.reserve(f->p50.size());
    s.p90.reserve(f->p90.size());
    for (size_t h = 0; h < f->p50.size(); ++h) {
      s.p50.push_back(Milli(f->p50[h]));
      s.p90.push_back(std::max(s.p50.back(), Milli(f->p90[h])));
    }
    if (what == "held") {
      forecast::CapacitySchedule schedule;
      schedule.initial = static_cast<double>(last_capacity[flavor]);
      FLEETCAP_ASSIGN_OR_RETURN(forecast::Exhaustion exhaustion, forecast::FindExhaustion(*f, schedule));
      if (exhaustion.p50_day) s.exhaustion_p50 = Midnight(*exhaustion.p50_day);
      if (exhaustion.p90_day) s.exhaustion_p90 = Midnight(*exhaustion.p90_day);
    }
    draft.series.push_back(std::move(s));
  }
  report.series = static_cast<int64_t>(draft.series.size());
  FLEETCAP_ASSIGN_OR_RETURN(int64_t id, stores_.forecasts->StoreRun(draft));
  report.run_id = id;
  FLEETCAP_ASSIGN_OR_RETURN(report.pruned, stores_.forecasts->PruneRuns(options_.keep_runs));
  return report;
}

}  // namespace fleetcap::optimizer

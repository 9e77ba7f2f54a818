#include "optimizer/forecast_pass/forecast_run_builder.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/logging.h"
#include "common/status_macros.h"
#include "optimizer/forecast/forecast.h"

namespace fleetcap::optimizer {
namespace {

// Milli-device-seconds per hour as the milli-devices held on average.
std::vector<int64_t> MilliDevices(const HourSums& sums) {
  std::vector<int64_t> out(sums.size());
  for (size_t i = 0; i < sums.size(); ++i) out[i] = sums[i] / 3600;
  return out;
}

int64_t Milli(double v) { return v > 0 && std::isfinite(v) ? std::llround(v) : 0; }

absl::Time Midnight(absl::CivilDay day) { return absl::FromCivil(day, absl::UTCTimeZone()); }

// Milli-devices in the history's last hour, per flavor.
std::map<std::string, int64_t> LastCapacity(const SeriesSums& sums) {
  std::map<std::string, int64_t> last;
  for (const auto& [key, hours] : sums.sums()) {
    if (key.what == kCapacitySeries) last[key.flavor] = hours.empty() ? 0 : hours.back() / 3600;
  }
  return last;
}

// Per flavor, the first hour of the history with capacity in service:
// before it the flavor did not exist, and its held hours are not zeros a
// model should learn from. A flavor never in service in the history (no
// devices stored for it) starts at 0.
std::map<std::string, size_t> FirstHourInService(const SeriesSums& sums) {
  std::map<std::string, size_t> first;
  for (const auto& [key, hours] : sums.sums()) {
    if (key.what != kCapacitySeries) continue;
    const auto in_service = std::find_if(hours.begin(), hours.end(), [](int64_t h) { return h > 0; });
    if (in_service != hours.end()) first[key.flavor] = static_cast<size_t>(in_service - hours.begin());
  }
  return first;
}

store::ForecastSeriesRecord NewSeries(const SeriesKey& key, const HourSums& sums) {
  store::ForecastSeriesRecord s;
  s.flavor = key.flavor;
  s.team = key.team;
  s.what = key.what;
  s.history = MilliDevices(sums);
  return s;
}

// Devices are bought, not forecast: the last hour's capacity, held flat.
void HoldFlat(int32_t horizon_hours, int64_t last, store::ForecastSeriesRecord* s) {
  s->model = "last_value";
  s->p50.assign(static_cast<size_t>(horizon_hours), last);
  s->p90 = s->p50;
}

// The engine's forecast `f` as the stored series' model, fit and band.
void RecordForecast(const forecast::Forecast& f, store::ForecastSeriesRecord* s) {
  s->model = f.model_name;
  s->fallback_reason = f.fallback_reason;
  s->fit = {{"alpha", f.fit.alpha},
            {"beta", f.fit.beta},
            {"gamma", f.fit.gamma},
            {"season_points", static_cast<double>(f.fit.season_points)},
            {"points_used", static_cast<double>(f.fit.points_used)},
            {"in_sample_rmse", f.fit.in_sample_rmse},
            {"in_sample_mae", f.fit.in_sample_mae},
            {"in_sample_mase", f.fit.in_sample_mase},
            {"phi", f.fit.phi},
            {"backtest_origins", static_cast<double>(f.fit.backtest_origins)},
            {"backtest_lead", static_cast<double>(f.fit.backtest_lead)},
            {"backtest_mae", f.fit.backtest_mae}};
  s->p50.reserve(f.p50.size());
  s->p90.reserve(f.p90.size());
  for (size_t h = 0; h < f.p50.size(); ++h) {
    s->p50.push_back(Milli(f.p50[h]));
    s->p90.push_back(std::max(s->p50.back(), Milli(f.p90[h])));
  }
}

// The first days the forecast `f` exceeds `capacity` milli-devices.
absl::Status RecordExhaustion(const forecast::Forecast& f, int64_t capacity, store::ForecastSeriesRecord* s) {
  forecast::CapacitySchedule schedule;
  schedule.initial = static_cast<double>(capacity);
  FLEETCAP_ASSIGN_OR_RETURN(forecast::Exhaustion exhaustion, forecast::FindExhaustion(f, schedule));
  if (exhaustion.p50_day) s->exhaustion_p50 = Midnight(*exhaustion.p50_day);
  if (exhaustion.p90_day) s->exhaustion_p90 = Midnight(*exhaustion.p90_day);
  return absl::OkStatus();
}

// The flavor's capacity: the last hour's, and the first hour it was in service.
struct FlavorCapacity {
  int64_t last = 0;
  size_t first_hour = 0;
};

// A held or pending series forecast by the engine from the flavor's first
// hour in service on; none when it refused.
absl::StatusOr<std::optional<store::ForecastSeriesRecord>> ForecastSeries(const SeriesKey& key, const HourSums& sums,
                                                                          const store::ForecastRunHeader& header,
                                                                          const FlavorCapacity& capacity) {
  store::ForecastSeriesRecord s = NewSeries(key, sums);
  forecast::ForecastOptions options;
  options.horizon_hours = header.horizon_hours;
  const size_t first = std::min(capacity.first_hour, s.history.size());
  forecast::HourlySeries series{
      header.history_start + absl::Hours(static_cast<int64_t>(first)),
      std::vector<double>(s.history.begin() + static_cast<std::ptrdiff_t>(first), s.history.end())};
  absl::StatusOr<forecast::Forecast> f = forecast::ForecastHourly(series, options);
  if (!f.ok()) {
    Logger("optimizer")
        ->warn("forecast of flavor {} team \"{}\" {}: {}", key.flavor, key.team, key.what, f.status().ToString());
    return std::nullopt;
  }
  RecordForecast(*f, &s);
  if (key.what == kHeldSeries) FLEETCAP_RETURN_IF_ERROR(RecordExhaustion(*f, capacity.last, &s));
  return s;
}

}  // namespace

absl::StatusOr<BuiltForecastRun> BuildForecastRun(const SeriesSums& sums, const store::ForecastRunHeader& header) {
  BuiltForecastRun out;
  out.draft.header = header;
  std::map<std::string, int64_t> last_capacity = LastCapacity(sums);
  std::map<std::string, size_t> first_hour = FirstHourInService(sums);
  for (const auto& [key, hours] : sums.sums()) {
    if (key.what == kCapacitySeries) {
      store::ForecastSeriesRecord s = NewSeries(key, hours);
      HoldFlat(header.horizon_hours, last_capacity[key.flavor], &s);
      out.draft.series.push_back(std::move(s));
      continue;
    }
    FLEETCAP_ASSIGN_OR_RETURN(std::optional<store::ForecastSeriesRecord> s,
                              ForecastSeries(key, hours, header, {last_capacity[key.flavor], first_hour[key.flavor]}));
    if (!s) {
      ++out.failed;
      continue;
    }
    out.draft.series.push_back(*std::move(s));
  }
  return out;
}

}  // namespace fleetcap::optimizer

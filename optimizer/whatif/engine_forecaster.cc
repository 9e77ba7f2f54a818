#include "optimizer/whatif/engine_forecaster.h"

#include <algorithm>
#include <cmath>

#include "optimizer/forecast/forecast.h"

namespace fleetcap::whatif {
namespace {

int64_t Milli(double devices) { return std::max<int64_t>(0, std::llround(devices * 1000.0)); }

}  // namespace

std::optional<HeldProjection> EngineForecaster::Project(const std::vector<int64_t>& history,
                                                        int64_t horizon_hours) const {
  if (history.empty() || horizon_hours < 1 || horizon_hours > forecast::kMaxHorizonHours) return std::nullopt;
  forecast::HourlySeries series;
  // Any whole hour: the models see positions in the series, not dates.
  series.start = absl::UnixEpoch();
  series.values.reserve(history.size());
  for (int64_t milli : history) series.values.push_back(static_cast<double>(milli) / 1000.0);
  forecast::ForecastOptions options;
  options.horizon_hours = static_cast<int>(horizon_hours);
  absl::StatusOr<forecast::Forecast> f = forecast::ForecastHourly(series, options);
  if (!f.ok()) return std::nullopt;
  HeldProjection p;
  p.model = f->model_name;
  p.p50_milli.reserve(f->p50.size());
  p.p90_milli.reserve(f->p90.size());
  for (double v : f->p50) p.p50_milli.push_back(Milli(v));
  for (double v : f->p90) p.p90_milli.push_back(Milli(v));
  return p;
}

}  // namespace fleetcap::whatif

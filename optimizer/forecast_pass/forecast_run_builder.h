#pragma once
// The forecast run's builder, pure: the loaded history of every series in,
// the run to store out. Each series is forecast with the engine of
// optimizer/forecast/ (held and pending) or held flat at its last hour
// (capacity: devices are bought, not forecast); held series get the days the
// flavor's capacity runs out.

#include <cstdint>

#include "absl/status/statusor.h"
#include "optimizer/forecast_pass/forecast_series.h"
#include "store/forecast_repository.h"

namespace fleetcap::optimizer {

struct BuiltForecastRun {
  store::ForecastRunDraft draft;
  int64_t failed = 0;  // series the engine refused (logged, left out)
};

// `header` is the run's (history_start the first hour of `sums`); its
// horizon is how far each series is forecast.
absl::StatusOr<BuiltForecastRun> BuildForecastRun(const SeriesSums& sums, const store::ForecastRunHeader& header);

}  // namespace fleetcap::optimizer

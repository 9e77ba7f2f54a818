#pragma once
// The model served for a series is the one its own recent history supports
// (docs/forecast.md, "Choosing the model"): each candidate (the last value,
// daily and weekly seasonal naive, damped and undamped Holt-Winters with a
// daily season, Holt-Winters with a weekly season) forecasts from the series'
// last few origins, and the lowest out-of-sample mean absolute error wins,
// ties to the simpler model. The band comes from the winner's out-of-sample
// errors at each lead. Internal to the forecast library; forecast.h is the
// public face.

#include <optional>
#include <vector>

#include "optimizer/forecast/forecast.h"

namespace fleetcap::forecast {

// At most this many origins, one lead window apart, end the history.
inline constexpr int kMaxSelectionOrigins = 14;
// Fewer origins than this choose nothing: the engine falls back to the model
// the series' length allows.
inline constexpr int kMinSelectionOrigins = 4;

struct SelectionPlan {
  int season = 0;   // the base season in points: 24 hourly, else ForecastOptions::season_points
  int lead = 0;     // points forecast and scored from each origin: min(horizon, season)
  int origins = 0;  // 0: too short to choose by backtest
};

SelectionPlan PlanSelection(size_t points, const ForecastOptions& options);

// The forecast of the model the backtest chose, its band calibrated by the
// backtest's errors; nullopt when `plan.origins` is 0. `y` is valid.
std::optional<Forecast> ForecastByBacktest(const std::vector<double>& y, const SelectionPlan& plan, int horizon);

}  // namespace fleetcap::forecast

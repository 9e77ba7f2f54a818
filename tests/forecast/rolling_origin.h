#pragma once
// Rolling-origin backtest of the forecast engine against the seasonal-naive
// baseline (docs/forecast.md, "Backtest"): at each origin both forecast the
// next `horizon` points from the history before it, and are scored on what
// came next.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tests/forecast/backtest_series.h"

namespace fleetcap::testing {

struct BacktestPlan {
  int season_points = 0;   // ForecastOptions::season_points (0: the hourly automatic choice)
  int scale_season = 168;  // the season of the naive forecast that scales MASE
  int first_origin = 672;  // points of history at the first origin
  int horizon = 168;       // points forecast and scored at each origin
  int step = 168;          // points between origins
};

struct SeriesScore {
  std::string name;
  std::string model_name;  // of the engine at the last origin
  int origins = 0;         // origins scored (a constant history scales nothing: skipped)
  double model_mase = 0;   // mean over origins
  double naive_mase = 0;
  double model_coverage = 0;  // share of held-out points inside [p05, p95]
  double naive_coverage = 0;
  double model_coverage_80 = 0;  // share inside [p10, p90]
  double naive_coverage_80 = 0;
  double model_below_p90 = 0;  // share of held-out points at or below p90 (nominally 90%)
  double naive_below_p90 = 0;
  int held_out_points = 0;
  std::vector<int> scored_origins;  // the history's length at each origin scored
  // How often each model was chosen over the origins: "last_value 15, exponential_smoothing 4".
  std::string models_chosen;
};

// The plans docs/forecast.md reports. openb: hourly, two weeks of history at
// the first origin (the weekly model's minimum), then a day ahead from each
// daily origin, scaled by the weekly naive error. genai: 5-minute points,
// twelve hours at the first origin, half an hour ahead from each half-hourly
// origin, with a one-hour season (the trace's 22.8 hours hold no second day).
inline BacktestPlan OpenbPlan() { return BacktestPlan{0, 168, 336, 24, 24}; }
inline BacktestPlan GenaiPlan() { return BacktestPlan{12, 12, 144, 6, 6}; }
// The same, an hour ahead from each hourly origin.
inline BacktestPlan GenaiHourPlan() { return BacktestPlan{12, 12, 144, 12, 12}; }
inline constexpr double kGenaiMinPodHours = 20.0;

SeriesScore BacktestSeries(const NamedSeries& series, const BacktestPlan& plan);

struct BacktestSummary {
  int series = 0;      // series with at least one scored origin
  int model_wins = 0;  // series where model MASE < naive MASE
  double median_model_mase = 0;
  double median_naive_mase = 0;
  double model_coverage = 0;  // pooled over every held-out point
  double naive_coverage = 0;
  double model_coverage_80 = 0;
  double naive_coverage_80 = 0;
  double model_below_p90 = 0;
  double naive_below_p90 = 0;
  double lowest_model_coverage = 0;  // the [p05, p95] band's, of the series with the lowest
};

BacktestSummary Summarise(const std::vector<SeriesScore>& scores);

// The backtest's inputs and the engine's scores as CSV, for an independent
// scorer (scripts/forecast_statsmodels.py): series.csv (set, series, t,
// value), splits.csv (set, series, origin, horizon, season, scale_season;
// one row per scored origin) and fleetcap.csv (set, series, model, models
// chosen, MASE model, MASE naive, both bands' coverage). `set` names the plan
// ("openb_24h"); each file is appended to, with a header when new.
absl::Status WriteBacktestCsv(const std::string& dir, const std::string& set, const std::vector<NamedSeries>& series,
                              const BacktestPlan& plan, const std::vector<SeriesScore>& scores);

}  // namespace fleetcap::testing

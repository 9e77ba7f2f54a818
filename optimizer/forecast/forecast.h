#pragma once
// The forecast engine (docs/forecast.md): an hourly series of held device-hours
// or pending demand in, the next hours' median and prediction band out, with
// the model that made them and how well it fitted. Pure code: no store, no
// clock, no files, so the planning API, the what-if runs and the benchmarks
// all call the same function on data they loaded themselves.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"

namespace fleetcap::forecast {

// One value per hour from `start` (a whole UTC hour): device-hours held in
// that hour (the mean number of devices held) or pending demand. Values are
// finite and non-negative.
struct HourlySeries {
  absl::Time start;
  std::vector<double> values;
};

// Bounds on hostile input: a series longer than ten years of hours or a
// horizon beyond two years is refused rather than computed.
inline constexpr int kMaxSeriesPoints = 10 * 366 * 24;
// No fleet holds a trillion devices; a larger value is corrupt input, and
// squares of it would overflow the fit's sums.
inline constexpr double kMaxSeriesValue = 1e12;
inline constexpr int kMaxHorizonHours = 2 * 366 * 24;
inline constexpr int kHoursPerDay = 24;
inline constexpr int kHoursPerWeek = 7 * 24;

struct ForecastOptions {
  int horizon_hours = 90 * kHoursPerDay;
  // 0: choose the season by the series' length (weekly from two weeks of
  // history, daily from two days). Otherwise the season length in points,
  // for a series sampled at another cadence (the genai backtest's 5-minute
  // means); a series shorter than two seasons then falls back as usual.
  int season_points = 0;
};

// The model a forecast came from, from the richest to the simplest fallback.
enum class ModelKind {
  kWeeklyHoltWinters,             // additive Holt-Winters, 168-hour season (holds the daily cycle too)
  kDailyHoltWinters,              // additive Holt-Winters, 24-hour season: under two weeks of history
  kSeasonalHoltWinters,           // additive Holt-Winters, season set by ForecastOptions::season_points
  kHoltLinear,                    // level and trend, no season: under two days of history
  kMean,                          // flat at the mean: too few points for a trend
  kSeasonalNaive,                 // each hour repeats the same hour one season earlier (daily or weekly)
  kLastValue,                     // flat at the last value
  kDampedHoltWinters,             // additive Holt-Winters with a damped trend, daily season (or season_points)
  kExponentialSmoothing,          // simple exponential smoothing: a level, no trend, no season (ETS(A,N,N))
  kSeasonalExponentialSmoothing,  // a level and a daily season (or season_points), no trend (ETS(A,N,A))
};

// Stable names, stored beside forecasts and shown by the API:
// "holt_winters_weekly", "holt_winters_daily", "holt_winters_seasonal",
// "holt_linear", "mean", "seasonal_naive", "last_value", "holt_winters_damped",
// "exponential_smoothing", "seasonal_exponential_smoothing".
absl::string_view ModelName(ModelKind kind);

// How the model was fitted. Smoothing parameters that the model does not
// use are 0 (beta for kMean, gamma without a season).
struct FitInfo {
  double alpha = 0;  // level smoothing
  double beta = 0;   // trend smoothing
  double gamma = 0;  // season smoothing
  double phi = 1;    // trend damping (1: undamped)
  int season_points = 0;
  // History points the smoothing parameters were fitted on: the most recent
  // six seasons, at least six weeks (the whole history when shorter), of the
  // history before the backtest's first origin when the model was chosen by
  // one; the model's state is then run over the whole history. A naive
  // model's: the whole history.
  int points_used = 0;
  // One-step-ahead errors over the fitted part of the history (after the
  // points that initialise the model).
  double in_sample_rmse = 0;
  double in_sample_mae = 0;
  // in_sample_mae over the in-sample mean absolute error of the seasonal-naive
  // forecast (season 1 without a season); 0 when that error is 0.
  double in_sample_mase = 0;
  int objective_evaluations = 0;  // one-step SSE evaluations of the fit
  // The backtest the model was chosen by (docs/forecast.md, "Choosing the
  // model"): its origins (0: the series was too short, the model is the one
  // its length allows), the points ahead scored from each, and the chosen
  // model's mean absolute error over them.
  int backtest_origins = 0;
  int backtest_lead = 0;
  double backtest_mae = 0;
};

// A forecast for the `horizon_hours` hours from `start` (the hour after the
// history). Quantiles per hour, clamped at 0: p05 <= p10 <= p50 <= p90 <= p95.
// The prediction band is [p05, p95] (nominally 90% of future hours inside);
// p90 alone is the pessimistic demand used for capacity exhaustion.
struct Forecast {
  absl::Time start;
  std::vector<double> p05;
  std::vector<double> p10;
  std::vector<double> p50;
  std::vector<double> p90;
  std::vector<double> p95;
  ModelKind model = ModelKind::kMean;
  std::string model_name;  // ModelName(model)
  FitInfo fit;
  // Empty when the richest model for the request was used; otherwise why not,
  // in words: "series of 40 hours is shorter than two weeks (336 hours): no
  // weekly seasonality".
  std::string fallback_reason;
};

// Chooses the model by a rolling-origin backtest on the series' own last
// origins (the last value, daily and weekly seasonal naive, damped and
// undamped daily Holt-Winters, weekly Holt-Winters with three whole weeks;
// ties to the simpler), its band calibrated by that backtest's errors. A
// series too short for the backtest gets the richest model its length allows
// (weekly Holt-Winters, else daily, else Holt linear, else the mean;
// docs/forecast.md). Forecasts options.horizon_hours ahead. INVALID_ARGUMENT, naming the field,
// for an empty or too long series, a NaN, infinite, negative or implausibly
// large (> kMaxSeriesValue) value (`values[i]`), a start that is not a whole hour, or a horizon out of range.
// Deterministic: the same input gives the same output bit for bit.
absl::StatusOr<Forecast> ForecastHourly(const HourlySeries& series, const ForecastOptions& options);

// The baseline of the backtests: the last season repeated, with a band that
// widens with each season ahead (docs/forecast.md). Season as in
// ForecastOptions (0: weekly, or daily, or 1 for short series).
absl::StatusOr<Forecast> ForecastSeasonalNaive(const HourlySeries& series, const ForecastOptions& options);

// The sum of several series hour by hour ("per flavor in total" is the sum of
// its teams' series). The result spans from the earliest start to the latest
// end; an hour a series does not cover counts as 0 for it. INVALID_ARGUMENT
// when the list is empty or a series is invalid (named by its index).
absl::StatusOr<HourlySeries> SumSeries(const std::vector<HourlySeries>& series);

// Capacity over time: `initial` until the first step, then each step's value
// from its time on (steps sorted by time, strictly increasing).
struct CapacityStep {
  absl::Time from;
  double capacity = 0;
};
struct CapacitySchedule {
  double initial = 0;
  std::vector<CapacityStep> steps;
};

// The first UTC day on which the forecast exceeds capacity in some hour
// (value > capacity), for the median and for the p90; nullopt when it does
// not within the forecast's horizon.
struct Exhaustion {
  std::optional<absl::CivilDay> p50_day;
  std::optional<absl::CivilDay> p90_day;
};

// INVALID_ARGUMENT for a NaN, infinite or negative capacity or unsorted steps.
absl::StatusOr<Exhaustion> FindExhaustion(const Forecast& forecast, const CapacitySchedule& capacity);

}  // namespace fleetcap::forecast

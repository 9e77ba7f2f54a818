#include "optimizer/forecast/forecast.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/forecast/backtest_selection.h"
#include "optimizer/forecast/holt_winters.h"
#include "optimizer/forecast/series_checks.h"

namespace fleetcap::forecast {
namespace {

// Below this many points a fitted trend is mostly noise: the mean is safer.
constexpr size_t kMinTrendPoints = 8;

// The band's edges in standard deviations of the h-step error: the normal
// distribution's, or the shape of the model's own one-step errors.
struct BandEdges {
  double q05 = -1.6448536269514729;
  double q10 = -1.2815515655446004;
  double q90 = 1.2815515655446004;
  double q95 = 1.6448536269514729;
};

// Below this many one-step errors their quantiles are too rough to use.
constexpr size_t kMinResidualsForEmpiricalBand = 50;

double Quantile(std::vector<double>& v, double q) {
  // Linear interpolation between order statistics (Hyndman and Fan type 7).
  const double position = q * static_cast<double>(v.size() - 1);
  const size_t below = static_cast<size_t>(position);
  std::nth_element(v.begin(), v.begin() + below, v.end());
  const double low = v[below];
  if (below + 1 >= v.size()) return low;
  const double high = *std::min_element(v.begin() + below + 1, v.end());
  return low + (position - below) * (high - low);
}

// Operational series have heavier tails than the normal (long quiet runs,
// sudden jumps), and calm and busy spells: a normal band from all the
// history's errors is too wide most hours. So the band takes its edges from
// the empirical quantiles of the recent one-step errors (the last four
// seasons, at least kMinResidualsForEmpiricalBand), in units of the fit's RMS
// error, and the h-step spread from the model's variance.
BandEdges EmpiricalEdges(const std::vector<double>& all_residuals, int season_points, double rmse) {
  const size_t recent = std::min(all_residuals.size(), std::max(kMinResidualsForEmpiricalBand,
                                                                4 * static_cast<size_t>(std::max(season_points, 1))));
  std::vector<double> residuals(all_residuals.end() - static_cast<std::ptrdiff_t>(recent), all_residuals.end());
  if (residuals.size() < kMinResidualsForEmpiricalBand || !(rmse > 0)) return BandEdges{};
  BandEdges e;
  e.q05 = Quantile(residuals, 0.05) / rmse;
  e.q10 = Quantile(residuals, 0.10) / rmse;
  e.q90 = Quantile(residuals, 0.90) / rmse;
  e.q95 = Quantile(residuals, 0.95) / rmse;
  // The median forecast stays the model's mean; the band keeps it inside.
  e.q05 = std::min(e.q05, 0.0);
  e.q10 = std::min(std::max(e.q10, e.q05), 0.0);
  e.q90 = std::max(e.q90, 0.0);
  e.q95 = std::max(e.q95, e.q90);
  return e;
}

struct ModelChoice {
  ModelKind kind = ModelKind::kMean;
  int season_points = 0;  // 0: none
  std::string fallback_reason;
};

ModelChoice ChooseModel(size_t n, const ForecastOptions& options) {
  ModelChoice choice;
  if (options.season_points > 0) {
    const size_t m = static_cast<size_t>(options.season_points);
    if (n >= MinimumPoints(options.season_points)) return {ModelKind::kSeasonalHoltWinters, options.season_points, ""};
    choice.fallback_reason =
        absl::StrCat("series of ", n, " points is shorter than two seasons (", 2 * m, " points): no seasonality");
  } else if (n >= MinimumPoints(kHoursPerWeek)) {
    return {ModelKind::kWeeklyHoltWinters, kHoursPerWeek, ""};
  } else if (n >= MinimumPoints(kHoursPerDay)) {
    return {ModelKind::kDailyHoltWinters, kHoursPerDay,
            absl::StrCat("series of ", n, " hours is shorter than two weeks (", 2 * kHoursPerWeek,
                         " hours): no weekly seasonality")};
  } else {
    choice.fallback_reason = absl::StrCat("series of ", n, " hours is shorter than two days (", 2 * kHoursPerDay,
                                          " hours): no daily or weekly seasonality");
  }
  if (n >= kMinTrendPoints) {
    choice.kind = ModelKind::kHoltLinear;
  } else {
    choice.kind = ModelKind::kMean;
    absl::StrAppend(&choice.fallback_reason, "; fewer than ", kMinTrendPoints, " points: no trend, flat at the mean");
  }
  return choice;
}

// The season of the seasonal-naive forecast: the one the model would use, or
// 1 (the last value repeated) when the series is too short for a season.
int NaiveSeason(size_t n, const ForecastOptions& options) {
  const ModelChoice choice = ChooseModel(n, options);
  return choice.season_points > 0 ? choice.season_points : 1;
}

// Mean absolute error of the seasonal-naive forecast inside the history: the
// scale of MASE.
double NaiveInSampleMae(const std::vector<double>& y, int season) {
  const size_t m = static_cast<size_t>(season);
  if (y.size() <= m) return 0;
  double sum = 0;
  for (size_t t = m; t < y.size(); ++t) sum += std::abs(y[t] - y[t - m]);
  return sum / static_cast<double>(y.size() - m);
}

// Fills the quantiles from per-hour means and standard deviations of a normal
// forecast error, clamped at 0 (neither held devices nor demand go negative).
void FillQuantiles(const std::vector<double>& mean, const std::vector<double>& stddev, const BandEdges& edges,
                   Forecast& f) {
  const size_t h = mean.size();
  f.p05.resize(h);
  f.p10.resize(h);
  f.p50.resize(h);
  f.p90.resize(h);
  f.p95.resize(h);
  for (size_t i = 0; i < h; ++i) {
    const double mu = mean[i];
    const double sd = stddev[i];
    f.p05[i] = std::max(0.0, mu + edges.q05 * sd);
    f.p10[i] = std::max(0.0, mu + edges.q10 * sd);
    f.p50[i] = std::max(0.0, mu);
    f.p90[i] = std::max(0.0, mu + edges.q90 * sd);
    f.p95[i] = std::max(0.0, mu + edges.q95 * sd);
  }
}

Forecast MeanForecast(const std::vector<double>& y, int horizon) {
  const double n = static_cast<double>(y.size());
  const double mean = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double ss = 0;
  for (double v : y) ss += (v - mean) * (v - mean);
  const double sigma = std::sqrt(ss / n);
  Forecast f;
  // The error of a future point around an estimated mean: sigma^2 (1 + 1/n).
  FillQuantiles(std::vector<double>(horizon, mean), std::vector<double>(horizon, sigma * std::sqrt(1.0 + 1.0 / n)),
                BandEdges{}, f);
  f.fit.points_used = static_cast<int>(y.size());
  f.fit.in_sample_rmse = sigma;
  double sae = 0;
  for (double v : y) sae += std::abs(v - mean);
  f.fit.in_sample_mae = sae / n;
  return f;
}

Forecast HoltWintersForecast(const std::vector<double>& y, int season_points, int horizon) {
  const FittedModel model = FitHoltWinters(y, season_points);
  std::vector<double> mean;
  std::vector<double> stddev;
  ProjectHoltWinters(model, horizon, mean, stddev);
  Forecast f;
  const double count = static_cast<double>(std::max<size_t>(model.errors.count, 1));
  const double rmse = std::sqrt(model.errors.sse / count);
  FillQuantiles(mean, stddev, EmpiricalEdges(model.residuals, model.season_points, rmse), f);
  f.fit.alpha = model.parameters.alpha;
  f.fit.beta = model.parameters.beta;
  f.fit.gamma = model.parameters.gamma;
  f.fit.season_points = model.season_points;
  f.fit.points_used = static_cast<int>(model.points_fitted);
  f.fit.in_sample_rmse = rmse;
  f.fit.in_sample_mae = model.errors.sae / count;
  f.fit.objective_evaluations = model.evaluations;
  return f;
}

}  // namespace

absl::string_view ModelName(ModelKind kind) {
  switch (kind) {
    case ModelKind::kWeeklyHoltWinters:
      return "holt_winters_weekly";
    case ModelKind::kDailyHoltWinters:
      return "holt_winters_daily";
    case ModelKind::kSeasonalHoltWinters:
      return "holt_winters_seasonal";
    case ModelKind::kHoltLinear:
      return "holt_linear";
    case ModelKind::kMean:
      return "mean";
    case ModelKind::kSeasonalNaive:
      return "seasonal_naive";
    case ModelKind::kLastValue:
      return "last_value";
    case ModelKind::kDampedHoltWinters:
      return "holt_winters_damped";
    case ModelKind::kExponentialSmoothing:
      return "exponential_smoothing";
    case ModelKind::kSeasonalExponentialSmoothing:
      return "seasonal_exponential_smoothing";
  }
  return "unknown";
}

absl::StatusOr<Forecast> ForecastHourly(const HourlySeries& series, const ForecastOptions& options) {
  FLEETCAP_RETURN_IF_ERROR(CheckSeries(series, "series"));
  FLEETCAP_RETURN_IF_ERROR(CheckOptions(options));
  const std::vector<double>& y = series.values;
  if (std::optional<Forecast> chosen = ForecastByBacktest(y, PlanSelection(y.size(), options), options.horizon_hours)) {
    chosen->start = series.start + absl::Hours(static_cast<int64_t>(y.size()));
    const double scale = NaiveInSampleMae(y, NaiveSeason(y.size(), options));
    chosen->fit.in_sample_mase = scale > 0 ? chosen->fit.in_sample_mae / scale : 0;
    return *std::move(chosen);
  }
  const ModelChoice choice = ChooseModel(y.size(), options);

  Forecast f = choice.kind == ModelKind::kMean ? MeanForecast(y, options.horizon_hours)
                                               : HoltWintersForecast(y, choice.season_points, options.horizon_hours);
  f.start = series.start + absl::Hours(static_cast<int64_t>(y.size()));
  f.model = choice.kind;
  f.model_name = std::string(ModelName(choice.kind));
  f.fallback_reason = choice.fallback_reason;
  const double scale = NaiveInSampleMae(y, choice.season_points > 0 ? choice.season_points : 1);
  f.fit.in_sample_mase = scale > 0 ? f.fit.in_sample_mae / scale : 0;
  return f;
}

absl::StatusOr<Forecast> ForecastSeasonalNaive(const HourlySeries& series, const ForecastOptions& options) {
  FLEETCAP_RETURN_IF_ERROR(CheckSeries(series, "series"));
  FLEETCAP_RETURN_IF_ERROR(CheckOptions(options));
  const std::vector<double>& y = series.values;
  const size_t n = y.size();
  const int season = NaiveSeason(n, options);
  const size_t m = static_cast<size_t>(season);

  double sse = 0;
  double sae = 0;
  for (size_t t = m; t < n; ++t) {
    const double e = y[t] - y[t - m];
    sse += e * e;
    sae += std::abs(e);
  }
  const double count = n > m ? static_cast<double>(n - m) : 1.0;
  const double sigma = std::sqrt(sse / count);

  const size_t horizon = static_cast<size_t>(options.horizon_hours);
  std::vector<double> mean(horizon);
  std::vector<double> stddev(horizon);
  // With fewer than a season of points the last one stands for the season.
  const size_t base = n >= m ? n - m : n - 1;
  for (size_t h = 1; h <= horizon; ++h) {
    const size_t k = (h - 1) / m;  // whole seasons ahead
    const size_t index = std::min(base + (h - 1) % m, n - 1);
    mean[h - 1] = y[index];
    stddev[h - 1] = sigma * std::sqrt(static_cast<double>(k + 1));
  }
  Forecast f;
  FillQuantiles(mean, stddev, BandEdges{}, f);
  f.start = series.start + absl::Hours(static_cast<int64_t>(n));
  f.model = ModelKind::kSeasonalNaive;
  f.model_name = std::string(ModelName(f.model));
  f.fit.season_points = season;
  f.fit.points_used = static_cast<int>(n);
  f.fit.in_sample_rmse = sigma;
  f.fit.in_sample_mae = sae / count;
  f.fit.in_sample_mase = n > m ? 1.0 : 0.0;
  return f;
}

}  // namespace fleetcap::forecast

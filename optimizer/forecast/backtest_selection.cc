#include "optimizer/forecast/backtest_selection.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "optimizer/forecast/holt_winters.h"

namespace fleetcap::forecast {
namespace {

// A candidate must beat every simpler one's backtest error by this share to
// be chosen over it: within it the two are tied, and the simpler one serves.
constexpr double kTieMargin = 0.01;
// The band's scale never drops below this share of the history's mean
// absolute step, so a history that varies never gets a zero-width band.
constexpr double kScaleFloorShare = 0.1;
// Nor do the band's edges come closer to the median than this many scales.
constexpr double kMinEdge = 0.2;
// Seasons of history before the first origin, for the parameters to be fitted on.
constexpr size_t kSeasonsBeforeFirstOrigin = 6;

struct Candidate {
  ModelKind kind = ModelKind::kLastValue;
  int season = 0;  // 0 for the last value
  bool damped = false;
  bool trend = false;
  bool smoothing() const { return kind != ModelKind::kLastValue && kind != ModelKind::kSeasonalNaive; }
};

// Simplest first: a tie goes to the earlier one.
std::vector<Candidate> CandidatesFor(const SelectionPlan& plan, bool hourly, size_t first_origin) {
  std::vector<Candidate> out;
  // The seasonal naive before the last value: equally simple, but one
  // bucket's drop or spike moves one hour of its season, not the whole level.
  out.push_back({ModelKind::kSeasonalNaive, plan.season, false, false});
  out.push_back({ModelKind::kLastValue, 0, false, false});
  const bool whole_weeks = hourly && first_origin >= static_cast<size_t>(kHoursPerWeek);
  if (whole_weeks) out.push_back({ModelKind::kSeasonalNaive, kHoursPerWeek, false, false});
  out.push_back({ModelKind::kExponentialSmoothing, 0, false, false});
  out.push_back({ModelKind::kSeasonalExponentialSmoothing, plan.season, false, false});
  out.push_back({ModelKind::kDampedHoltWinters, plan.season, true, true});
  out.push_back({hourly ? ModelKind::kDailyHoltWinters : ModelKind::kSeasonalHoltWinters, plan.season, false, true});
  // A weekly season is fitted only with three whole weeks before the first
  // origin: two initialise it, the third is what its parameters are fitted on.
  if (hourly && first_origin >= 3 * static_cast<size_t>(kHoursPerWeek)) {
    out.push_back({ModelKind::kWeeklyHoltWinters, kHoursPerWeek, false, true});
  }
  return out;
}

// A naive candidate's forecast `lead` points from `origin`.
void NaiveMean(absl::Span<const double> y, const Candidate& c, size_t origin, int lead, std::vector<double>& mean) {
  mean.resize(static_cast<size_t>(lead));
  const size_t m = static_cast<size_t>(std::max(c.season, 1));
  for (size_t h = 0; h < mean.size(); ++h) mean[h] = y[origin - m + h % m];
}

// A candidate's run through the backtest: its out-of-sample errors,
// [origin][lead] (empty when the model diverged), and for a smoothing model
// its parameters and its state at the last origin.
struct CandidateRun {
  std::vector<std::vector<double>> errors;
  SmoothingParameters parameters;
  ModelState state;
  size_t position = 0;  // the points the state has seen
  int evaluations = 0;
  size_t points_fitted = 0;
};

// Smoothing models are fitted once on the history before the first origin
// (`fitted`), then their state runs on through the origins as it would in
// service.
CandidateRun BacktestErrors(absl::Span<const double> y, const Candidate& c, const FittedParameters& fitted,
                            const ModelRun& to_first_origin, const std::vector<size_t>& origins, int lead) {
  CandidateRun run;
  std::vector<double> mean;
  if (c.smoothing()) {
    if (!std::isfinite(to_first_origin.sse)) return run;
    run.parameters = fitted.parameters;
    run.evaluations = fitted.evaluations + 1;  // and the run to the end of the history
    run.points_fitted = fitted.points_fitted;
    run.state = to_first_origin.state;
    run.position = origins.front();
  }
  for (const size_t origin : origins) {
    if (c.smoothing()) {
      const RecursionErrors step = RunRecursion(y.first(origin), run.position, run.parameters, run.state);
      run.position = origin;
      if (!std::isfinite(step.sse)) {
        run.errors.clear();
        return run;
      }
      ProjectMean(run.state, run.parameters, lead, mean);
    } else {
      NaiveMean(y, c, origin, lead, mean);
    }
    std::vector<double>& e = run.errors.emplace_back(static_cast<size_t>(lead));
    for (size_t h = 0; h < e.size(); ++h) e[h] = y[origin + h] - std::max(0.0, mean[h]);
  }
  return run;
}

double MeanAbsolute(const std::vector<std::vector<double>>& errors) {
  double sum = 0;
  size_t count = 0;
  for (const auto& row : errors) {
    for (double e : row) sum += std::abs(e);
    count += row.size();
  }
  return count > 0 && std::isfinite(sum) ? sum / static_cast<double>(count) : HUGE_VAL;
}

double QuantileOf(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double position = q * static_cast<double>(v.size() - 1);
  const size_t below = static_cast<size_t>(position);
  if (below + 1 >= v.size()) return v.back();
  return v[below] + (position - below) * (v[below + 1] - v[below]);
}

// The band's scale at each lead inside the backtest: the root mean square of
// the errors up to that lead (smooth), never below an earlier lead's (a band
// does not narrow with the lead) nor below the floor.
std::vector<double> LeadScales(const std::vector<std::vector<double>>& errors, int lead, double floor) {
  std::vector<double> scale(static_cast<size_t>(lead));
  double sum = 0;
  double count = 0;
  for (size_t h = 0; h < scale.size(); ++h) {
    for (const auto& row : errors) sum += std::abs(row[h]);
    count += static_cast<double>(errors.size());
    scale[h] = std::max({sum / count, floor, h > 0 ? scale[h - 1] : 0.0});
  }
  return scale;
}

double MeanAbsoluteStep(absl::Span<const double> y) {
  double sum = 0;
  for (size_t t = 1; t < y.size(); ++t) sum += std::abs(y[t] - y[t - 1]);
  return y.size() > 1 ? sum / static_cast<double>(y.size() - 1) : 0;
}

// Conformal band: the empirical quantiles of the backtest's errors, each in
// units of its lead's scale, times the scale at each forecast lead; beyond
// the backtest's leads the scale grows with the square root of the lead.
void FillCalibratedBand(absl::Span<const double> y, const std::vector<std::vector<double>>& errors, int lead,
                        Forecast& f) {
  const std::vector<double> scale = LeadScales(errors, lead, kScaleFloorShare * MeanAbsoluteStep(y));
  std::vector<double> z;
  for (const auto& row : errors) {
    for (size_t h = 0; h < row.size(); ++h) z.push_back(scale[h] > 0 ? row[h] / scale[h] : 0.0);
  }
  const double q05 = std::min(QuantileOf(z, 0.05), -kMinEdge);
  const double q10 = std::clamp(QuantileOf(z, 0.10), q05, -kMinEdge * 0.75);
  const double q95 = std::max(QuantileOf(z, 0.95), kMinEdge);
  const double q90 = std::clamp(QuantileOf(z, 0.90), kMinEdge * 0.75, q95);
  const size_t horizon = f.p50.size();
  f.p05.resize(horizon);
  f.p10.resize(horizon);
  f.p90.resize(horizon);
  f.p95.resize(horizon);
  for (size_t h = 0; h < horizon; ++h) {
    const size_t l = static_cast<size_t>(lead);
    const double s = h < l ? scale[h] : scale[l - 1] * std::sqrt(static_cast<double>(h + 1) / static_cast<double>(l));
    const double mu = f.p50[h];
    f.p05[h] = std::max(0.0, mu + q05 * s);
    f.p10[h] = std::max(0.0, mu + q10 * s);
    f.p90[h] = std::max(0.0, mu + q90 * s);
    f.p95[h] = std::max(0.0, mu + q95 * s);
  }
}

// The chosen candidate's forecast from the end of the history: a smoothing
// model keeps the parameters it was backtested with, its state run on to the end.
void FillMedian(absl::Span<const double> y, const Candidate& c, CandidateRun& run, int horizon, Forecast& f) {
  std::vector<double> mean;
  if (c.smoothing()) {
    ModelState state = InitialStateOf(y, c.season, c.trend, &run.position);
    const RecursionErrors errors = RunRecursion(y, run.position, run.parameters, state);
    ProjectMean(state, run.parameters, horizon, mean);
    const double count = static_cast<double>(std::max<size_t>(errors.count, 1));
    f.fit.alpha = run.parameters.alpha;
    f.fit.beta = run.parameters.beta;
    f.fit.gamma = run.parameters.gamma;
    f.fit.phi = run.parameters.phi;
    f.fit.points_used = static_cast<int>(run.points_fitted);
    f.fit.in_sample_rmse = std::sqrt(errors.sse / count);
    f.fit.in_sample_mae = errors.sae / count;
    f.fit.objective_evaluations = run.evaluations;
  } else {
    const size_t m = static_cast<size_t>(std::max(c.season, 1));
    mean.resize(static_cast<size_t>(horizon));
    for (size_t h = 0; h < mean.size(); ++h) mean[h] = y[y.size() - m + h % m];
    double sse = 0;
    double sae = 0;
    for (size_t t = m; t < y.size(); ++t) {
      const double e = y[t] - y[t - m];
      sse += e * e;
      sae += std::abs(e);
    }
    const double count = static_cast<double>(std::max<size_t>(y.size() - m, 1));
    f.fit.points_used = static_cast<int>(y.size());
    // The last value is exponential smoothing that follows the level wholly.
    if (c.kind == ModelKind::kLastValue) f.fit.alpha = 1;
    f.fit.in_sample_rmse = std::sqrt(sse / count);
    f.fit.in_sample_mae = sae / count;
  }
  f.fit.season_points = c.season;
  f.p50.resize(mean.size());
  for (size_t h = 0; h < mean.size(); ++h) f.p50[h] = std::max(0.0, mean[h]);
}

std::string CandidateName(const Candidate& c) {
  if (c.kind == ModelKind::kSeasonalNaive) return absl::StrCat(ModelName(c.kind), "/", c.season);
  return std::string(ModelName(c.kind));
}

}  // namespace

SelectionPlan PlanSelection(size_t points, const ForecastOptions& options) {
  SelectionPlan plan;
  plan.season = options.season_points > 0 ? options.season_points : kHoursPerDay;
  plan.lead = std::min(options.horizon_hours, plan.season);
  // Before the first origin: two seasons to initialise a seasonal model and
  // one to fit its parameters on.
  const size_t before = kSeasonsBeforeFirstOrigin * static_cast<size_t>(plan.season);
  const size_t lead = static_cast<size_t>(std::max(plan.lead, 1));
  const size_t origins = points > before ? (points - before) / lead : 0;
  plan.origins = static_cast<int>(std::min<size_t>(origins, kMaxSelectionOrigins));
  // With enough whole weeks for the weekly model (three before the first
  // origin), fewer origins rather than no weekly candidate.
  const size_t weeks = 3 * static_cast<size_t>(kHoursPerWeek);
  if (options.season_points == 0 && points >= weeks + kMinSelectionOrigins * lead) {
    plan.origins = std::min(plan.origins, static_cast<int>((points - weeks) / lead));
  }
  if (plan.origins < kMinSelectionOrigins) plan.origins = 0;
  return plan;
}

std::optional<Forecast> ForecastByBacktest(const std::vector<double>& values, const SelectionPlan& plan, int horizon) {
  if (plan.origins <= 0) return std::nullopt;
  const absl::Span<const double> y(values);
  std::vector<size_t> origins;
  for (int k = plan.origins; k >= 1; --k) origins.push_back(y.size() - static_cast<size_t>(k * plan.lead));
  const bool hourly = plan.season == kHoursPerDay;
  const std::vector<Candidate> candidates = CandidatesFor(plan, hourly, origins.front());

  // Every smoothing candidate is fitted on the history before the first
  // origin, all in one pass of fits (FitSmoothingParameters).
  std::vector<SmoothingSpec> specs;
  for (const Candidate& c : candidates) {
    if (c.smoothing()) specs.push_back(SmoothingSpec{c.season, c.damped, c.trend});
  }
  const std::vector<FittedParameters> fits = FitSmoothingParameters(y.first(origins.front()), specs);
  std::vector<SmoothingParameters> parameters;
  for (const FittedParameters& fit : fits) parameters.push_back(fit.parameters);
  const std::vector<ModelRun> to_first_origin = RunSmoothingModels(y.first(origins.front()), specs, parameters);

  size_t best = 0;
  double best_mae = HUGE_VAL;
  CandidateRun best_run;
  std::vector<double> maes;
  size_t next_fit = 0;
  for (size_t i = 0; i < candidates.size(); ++i) {
    const FittedParameters no_fit;
    const ModelRun no_run;
    const bool smoothing = candidates[i].smoothing();
    CandidateRun run = BacktestErrors(y, candidates[i], smoothing ? fits[next_fit] : no_fit,
                                      smoothing ? to_first_origin[next_fit] : no_run, origins, plan.lead);
    if (smoothing) ++next_fit;
    const double mae = MeanAbsolute(run.errors);
    maes.push_back(mae);
    if (i == 0 || mae < best_mae * (1.0 - kTieMargin)) {
      best = i;
      best_mae = mae;
      best_run = std::move(run);
    }
  }
  const Candidate& chosen = candidates[best];
  Forecast f;
  FillMedian(y, chosen, best_run, horizon, f);
  FillCalibratedBand(y, best_run.errors, plan.lead, f);
  f.model = chosen.kind;
  f.model_name = std::string(ModelName(chosen.kind));
  f.fit.backtest_origins = plan.origins;
  f.fit.backtest_lead = plan.lead;
  f.fit.backtest_mae = best_mae;
  // Why this model, in words, against the richest candidate when another won.
  if (best + 1 != candidates.size()) {
    f.fallback_reason = absl::StrFormat(
        "chosen by a backtest of the last %d origins, %d points ahead: mean absolute error %.4g against %.4g for "
        "%s",
        plan.origins, plan.lead, best_mae, maes.back(), CandidateName(candidates.back()));
  }
  return f;
}

}  // namespace fleetcap::forecast

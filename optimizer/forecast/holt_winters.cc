#include "optimizer/forecast/holt_winters.h"

#include <cmath>
#include <numeric>

#include "optimizer/forecast/nelder_mead.h"

namespace fleetcap::forecast {
namespace {

double Sigmoid(double u) { return 1.0 / (1.0 + std::exp(-u)); }
double Logit(double p) { return std::log(p / (1.0 - p)); }

// Unconstrained search coordinates to parameters inside their ranges, so the
// minimiser never has to reject a point.
SmoothingParameters FromSearchSpace(const std::vector<double>& u, bool seasonal) {
  SmoothingParameters p;
  p.alpha = Sigmoid(u[0]);
  p.beta = p.alpha * Sigmoid(u[1]);
  p.gamma = seasonal ? (1.0 - p.alpha) * Sigmoid(u[2]) : 0.0;
  return p;
}

// Where the search starts: a slowly moving level, a nearly fixed trend and
// season, the usual starting point for hourly operational series.
constexpr double kStartAlpha = 0.2;
constexpr double kStartBetaShare = 0.05;  // of alpha
constexpr double kStartGammaShare = 0.1;  // of 1 - alpha
constexpr int kEvaluationBudget = 90;

double Mean(absl::Span<const double> y) { return std::accumulate(y.begin(), y.end(), 0.0) / y.size(); }

}  // namespace

size_t MinimumPoints(int season_points) { return season_points > 0 ? 2 * static_cast<size_t>(season_points) : 2; }

ModelState InitialState(absl::Span<const double> y, int season_points, size_t* first) {
  ModelState state;
  if (season_points <= 0) {
    // Trend from the first few steps: one step alone is mostly noise.
    const size_t k = std::min<size_t>(y.size() - 1, 4);
    state.level = y[0];
    state.trend = (y[k] - y[0]) / static_cast<double>(k);
    *first = 1;
    return state;
  }
  const size_t m = static_cast<size_t>(season_points);
  const double mean1 = Mean(y.subspan(0, m));
  const double mean2 = Mean(y.subspan(m, m));
  state.trend = (mean2 - mean1) / static_cast<double>(m);
  state.season.assign(m, 0.0);
  const double centre = (static_cast<double>(m) - 1.0) / 2.0;
  for (size_t j = 0; j < m; ++j) {
    const double drift = state.trend * (static_cast<double>(j) - centre);
    state.season[j] = ((y[j] - mean1 - drift) + (y[m + j] - mean2 - drift)) / 2.0;
  }
  const double offset = Mean(state.season);
  for (double& s : state.season) s -= offset;
  state.level = mean1 + state.trend * centre;
  state.next_phase = 0;
  *first = m;
  return state;
}

RecursionErrors RunRecursion(absl::Span<const double> y, size_t first, const SmoothingParameters& p,
                             ModelState& state) {
  RecursionErrors errors;
  double level = state.level;
  double trend = state.trend;
  const size_t m = state.season.size();
  size_t phase = state.next_phase;
  double sse = 0;
  double sae = 0;
  if (m == 0) {
    for (size_t t = first; t < y.size(); ++t) {
      const double e = y[t] - (level + trend);
      sse += e * e;
      sae += std::abs(e);
      level += trend + p.alpha * e;
      trend += p.beta * e;
    }
  } else {
    double* season = state.season.data();
    for (size_t t = first; t < y.size(); ++t) {
      const double e = y[t] - (level + trend + season[phase]);
      sse += e * e;
      sae += std::abs(e);
      level += trend + p.alpha * e;
      trend += p.beta * e;
      season[phase] += p.gamma * e;
      if (++phase == m) phase = 0;
    }
  }
  state.level = level;
  state.trend = trend;
  state.next_phase = phase;
  errors.sse = std::isfinite(sse) ? sse : HUGE_VAL;
  errors.sae = sae;
  errors.count = y.size() > first ? y.size() - first : 0;
  return errors;
}

FittedModel FitHoltWinters(absl::Span<const double> y, int season_points) {
  const bool seasonal = season_points > 0;
  size_t first = 0;
  const ModelState initial = InitialState(y, season_points, &first);

  std::vector<double> start = {Logit(kStartAlpha), Logit(kStartBetaShare)};
  if (seasonal) start.push_back(Logit(kStartGammaShare));
  ModelState scratch;
  auto objective = [&](const std::vector<double>& u) {
    scratch = initial;  // reuses scratch's season storage after the first call
    return RunRecursion(y, first, FromSearchSpace(u, seasonal), scratch).sse;
  };
  NelderMeadOptions options;
  options.max_evaluations = kEvaluationBudget;
  const NelderMeadResult best = MinimizeNelderMead(objective, start, options);

  FittedModel model;
  model.season_points = seasonal ? season_points : 0;
  model.parameters = FromSearchSpace(best.x, seasonal);
  model.state = initial;
  model.errors = RunRecursion(y, first, model.parameters, model.state);
  model.evaluations = best.evaluations + 1;
  return model;
}

void ProjectHoltWinters(const FittedModel& model, int horizon, std::vector<double>& mean, std::vector<double>& stddev) {
  mean.resize(horizon);
  stddev.resize(horizon);
  const ModelState& s = model.state;
  const SmoothingParameters& p = model.parameters;
  const size_t m = s.season.size();
  const double sigma2 = model.errors.count > 0 ? model.errors.sse / static_cast<double>(model.errors.count) : 0.0;
  double sum_c2 = 0;  // sum over j < h of c_j^2
  size_t phase = s.next_phase;
  for (int h = 1; h <= horizon; ++h) {
    double value = s.level + h * s.trend;
    if (m > 0) {
      value += s.season[phase];
      if (++phase == m) phase = 0;
    }
    mean[h - 1] = value;
    stddev[h - 1] = std::sqrt(sigma2 * (1.0 + sum_c2));
    const double j = h;
    double c = p.alpha + p.beta * j;
    if (m > 0 && h % static_cast<int>(m) == 0) c += p.gamma;
    sum_c2 += c * c;
  }
}

}  // namespace fleetcap::forecast

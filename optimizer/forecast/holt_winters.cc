#include "optimizer/forecast/holt_winters.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "optimizer/forecast/nelder_mead.h"

namespace fleetcap::forecast {
namespace {

// The damping's range (Hyndman et al. 2008): below 0.8 the trend is gone in a
// few steps, above 0.98 it is hardly damped.
constexpr double kMinPhi = 0.8;
constexpr double kMaxPhi = 0.98;

double Sigmoid(double u) { return 1.0 / (1.0 + std::exp(-u)); }
double Logit(double p) { return std::log(p / (1.0 - p)); }

// Unconstrained search coordinates to parameters inside their ranges, so the
// minimiser never has to reject a point.
SmoothingParameters FromSearchSpace(const std::vector<double>& u, bool seasonal, bool damped, bool trend) {
  SmoothingParameters p;
  p.alpha = Sigmoid(u[0]);
  p.beta = trend ? p.alpha * Sigmoid(u[1]) : 0.0;
  const size_t g = trend ? 2 : 1;
  p.gamma = seasonal ? (1.0 - p.alpha) * Sigmoid(u[g]) : 0.0;
  if (damped) p.phi = kMinPhi + (kMaxPhi - kMinPhi) * Sigmoid(u.back());
  return p;
}

// Where the search starts: a slowly moving level, a nearly fixed trend and
// season, the usual starting point for hourly operational series.
constexpr double kStartAlpha = 0.2;
constexpr double kStartBetaShare = 0.05;  // of alpha
constexpr double kStartGammaShare = 0.1;  // of 1 - alpha
constexpr double kStartPhiShare = 0.5;    // of the damping's range
constexpr int kEvaluationBudget = 90;

// phi + phi^2 + ... + phi^h.
double DampedSum(double phi, int h) { return phi * (1.0 - std::pow(phi, h)) / (1.0 - phi); }

double Mean(absl::Span<const double> y) { return std::accumulate(y.begin(), y.end(), 0.0) / y.size(); }

}  // namespace

size_t FitWindowPoints(int season_points) {
  return std::max(kMinFitWindowPoints, kFitWindowSeasons * static_cast<size_t>(std::max(season_points, 0)));
}

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

RecursionErrors RunRecursion(absl::Span<const double> y, size_t first, const SmoothingParameters& p, ModelState& state,
                             std::vector<double>* residuals) {
  RecursionErrors errors;
  double level = state.level;
  double trend = state.trend;
  const double phi = p.phi;
  const size_t m = state.season.size();
  size_t phase = state.next_phase;
  double sse = 0;
  double sae = 0;
  if (residuals != nullptr) {
    // The fit's hot loop stays free of the branch; this pass runs once.
    residuals->clear();
    for (size_t t = first; t < y.size(); ++t) {
      const double e = y[t] - (level + phi * trend + (m > 0 ? state.season[phase] : 0.0));
      residuals->push_back(e);
      sse += e * e;
      sae += std::abs(e);
      level += phi * trend + p.alpha * e;
      trend = phi * trend + p.beta * e;
      if (m > 0) {
        state.season[phase] += p.gamma * e;
        if (++phase == m) phase = 0;
      }
    }
  } else if (m == 0) {
    for (size_t t = first; t < y.size(); ++t) {
      const double e = y[t] - (level + phi * trend);
      sse += e * e;
      sae += std::abs(e);
      level += phi * trend + p.alpha * e;
      trend = phi * trend + p.beta * e;
    }
  } else {
    double* season = state.season.data();
    for (size_t t = first; t < y.size(); ++t) {
      const double e = y[t] - (level + phi * trend + season[phase]);
      sse += e * e;
      sae += std::abs(e);
      level += phi * trend + p.alpha * e;
      trend = phi * trend + p.beta * e;
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

ModelState InitialStateOf(absl::Span<const double> y, int season_points, bool trend, size_t* first) {
  ModelState state = InitialState(y, season_points, first);
  if (!trend) state.trend = 0;
  return state;
}

namespace {

// One search's evaluation in a pass over the series: its parameters, its
// state (a copy of its initial one) and its sum of squared one-step errors.
struct Lane {
  size_t begin = 0;  // the first scored point, counted in the whole series
  SmoothingParameters p;
  double level = 0;
  double trend = 0;
  double* season = nullptr;  // one point of 0 for a model without a season
  size_t m = 1;
  size_t phase = 0;
  double sse = 0;
};

// One step of a lane's recursion at `value`: RunRecursion's arithmetic, in
// its order.
inline void Step(double value, const SmoothingParameters& p, double& level, double& trend, double* season, size_t m,
                 size_t& phase, double& sse) {
  const double e = value - (level + p.phi * trend + season[phase]);
  sse += e * e;
  level += p.phi * trend + p.alpha * e;
  trend = p.phi * trend + p.beta * e;
  season[phase] += p.gamma * e;
  if (++phase == m) phase = 0;
}

// K lanes over y, interleaved point by point, their state in locals that
// the compiler keeps in registers: K independent chains of dependent steps
// for the processor to overlap. A lane starts at its own first scored point.
template <size_t K>
void RunLaneGroup(absl::Span<const double> y, Lane* lanes) {
  double level[K], trend[K], sse[K];
  SmoothingParameters p[K];
  double* season[K];
  size_t begin[K], m[K], phase[K];
  size_t from = y.size();
  size_t all = 0;  // from here every lane is scoring
  for (size_t k = 0; k < K; ++k) {
    level[k] = lanes[k].level;
    trend[k] = lanes[k].trend;
    sse[k] = lanes[k].sse;
    p[k] = lanes[k].p;
    season[k] = lanes[k].season;
    begin[k] = lanes[k].begin;
    m[k] = lanes[k].m;
    phase[k] = lanes[k].phase;
    from = std::min(from, begin[k]);
    all = std::max(all, std::min(begin[k], y.size()));
  }
  for (size_t t = from; t < all; ++t) {
#pragma GCC unroll 8
    for (size_t k = 0; k < K; ++k) {
      if (t >= begin[k]) Step(y[t], p[k], level[k], trend[k], season[k], m[k], phase[k], sse[k]);
    }
  }
  for (size_t t = all; t < y.size(); ++t) {
    const double value = y[t];
#pragma GCC unroll 8
    for (size_t k = 0; k < K; ++k) Step(value, p[k], level[k], trend[k], season[k], m[k], phase[k], sse[k]);
  }
  for (size_t k = 0; k < K; ++k) {
    lanes[k].level = level[k];
    lanes[k].trend = trend[k];
    lanes[k].sse = sse[k];
    lanes[k].phase = phase[k];
  }
}

// Every lane over y, together in groups of up to five (the smoothing
// candidates a backtest fits).
void RunLanes(absl::Span<const double> y, std::vector<Lane>& lanes) {
  using Group = void (*)(absl::Span<const double>, Lane*);
  static constexpr Group kGroupOf[] = {RunLaneGroup<1>, RunLaneGroup<2>, RunLaneGroup<3>, RunLaneGroup<4>,
                                       RunLaneGroup<5>};
  constexpr size_t kMost = sizeof kGroupOf / sizeof kGroupOf[0];
  for (size_t i = 0; i < lanes.size(); i += kMost) {
    kGroupOf[std::min(lanes.size() - i, kMost) - 1](y, lanes.data() + i);
  }
}

// A spec's search: where its window starts, its initial state and the
// scratch season its evaluations run on.
struct Search {
  SmoothingSpec spec;
  size_t begin = 0;
  ModelState initial;
  std::vector<double> season;
  NelderMeadSearch nelder_mead;
};

Search StartSearch(absl::Span<const double> y, const SmoothingSpec& spec) {
  const size_t window = std::min(y.size(), FitWindowPoints(spec.season_points));
  const size_t offset = y.size() - window;
  size_t first = 0;
  ModelState initial = InitialStateOf(y.subspan(offset), spec.season_points, spec.trend, &first);
  std::vector<double> start = {Logit(kStartAlpha)};
  if (spec.trend) start.push_back(Logit(kStartBetaShare));
  if (spec.season_points > 0) start.push_back(Logit(kStartGammaShare));
  if (spec.damped) start.push_back(Logit(kStartPhiShare));
  NelderMeadOptions options;
  options.max_evaluations = kEvaluationBudget;
  std::vector<double> season(std::max<size_t>(initial.season.size(), 1), 0.0);
  return Search{spec, offset + first, std::move(initial), std::move(season), NelderMeadSearch(start, options)};
}

}  // namespace

std::vector<FittedParameters> FitSmoothingParameters(absl::Span<const double> y,
                                                     const std::vector<SmoothingSpec>& specs) {
  // The parameters are fitted on the recent history only: it is what the
  // next months resemble most, and it bounds a fit's cost whatever the
  // history's length (the fleet-wide benchmark's budget, docs/forecast.md).
  std::vector<Search> searches;
  searches.reserve(specs.size());
  for (const SmoothingSpec& spec : specs) searches.push_back(StartSearch(y, spec));
  std::vector<Lane> lanes;
  std::vector<Search*> asking;
  while (true) {
    lanes.clear();
    asking.clear();
    for (Search& s : searches) {
      if (s.nelder_mead.done()) continue;
      const bool seasonal = s.spec.season_points > 0;
      // Every evaluation starts from the initial state, the season too (a
      // model without one has a point of 0 that a diverged pass may spoil).
      if (seasonal) {
        std::copy(s.initial.season.begin(), s.initial.season.end(), s.season.begin());
      } else {
        s.season[0] = 0.0;
      }
      lanes.push_back(Lane{s.begin, FromSearchSpace(s.nelder_mead.point(), seasonal, s.spec.damped, s.spec.trend),
                           s.initial.level, s.initial.trend, s.season.data(), s.season.size(), s.initial.next_phase,
                           0.0});
      asking.push_back(&s);
    }
    if (asking.empty()) break;
    RunLanes(y, lanes);
    for (size_t i = 0; i < asking.size(); ++i) {
      asking[i]->nelder_mead.Tell(std::isfinite(lanes[i].sse) ? lanes[i].sse : HUGE_VAL);
    }
  }
  std::vector<FittedParameters> out;
  out.reserve(searches.size());
  for (const Search& s : searches) {
    const NelderMeadResult best = s.nelder_mead.result();
    const size_t window = std::min(y.size(), FitWindowPoints(s.spec.season_points));
    out.push_back(FittedParameters{FromSearchSpace(best.x, s.spec.season_points > 0, s.spec.damped, s.spec.trend),
                                   window, best.evaluations});
  }
  return out;
}

std::vector<ModelRun> RunSmoothingModels(absl::Span<const double> y, const std::vector<SmoothingSpec>& specs,
                                         const std::vector<SmoothingParameters>& parameters) {
  std::vector<ModelRun> runs(specs.size());
  std::vector<double> no_season(specs.size(), 0.0);  // the lane's season for a model without one
  std::vector<Lane> lanes;
  for (size_t i = 0; i < specs.size(); ++i) {
    size_t first = 0;
    ModelState& state = runs[i].state;
    state = InitialStateOf(y, specs[i].season_points, specs[i].trend, &first);
    const bool seasonal = !state.season.empty();
    lanes.push_back(Lane{first, parameters[i], state.level, state.trend, seasonal ? state.season.data() : &no_season[i],
                         seasonal ? state.season.size() : 1, state.next_phase, 0.0});
  }
  RunLanes(y, lanes);
  for (size_t i = 0; i < specs.size(); ++i) {
    ModelState& state = runs[i].state;
    state.level = lanes[i].level;
    state.trend = lanes[i].trend;
    if (!state.season.empty()) state.next_phase = lanes[i].phase;
    runs[i].sse = std::isfinite(lanes[i].sse) ? lanes[i].sse : HUGE_VAL;
  }
  return runs;
}

FittedModel FitHoltWinters(absl::Span<const double> y, int season_points, bool damped, bool trend) {
  const FittedParameters fitted = FitSmoothingParameters(y, {SmoothingSpec{season_points, damped, trend}}).front();
  FittedModel model;
  model.season_points = season_points > 0 ? season_points : 0;
  model.parameters = fitted.parameters;
  // The state is then run over the whole history with those parameters.
  size_t whole_first = 0;
  model.state = InitialStateOf(y, season_points, trend, &whole_first);
  model.errors = RunRecursion(y, whole_first, model.parameters, model.state, &model.residuals);
  model.points_fitted = fitted.points_fitted;
  model.evaluations = fitted.evaluations + 1;
  return model;
}

void ProjectMean(const ModelState& state, const SmoothingParameters& p, int horizon, std::vector<double>& mean) {
  mean.resize(static_cast<size_t>(horizon));
  const size_t m = state.season.size();
  size_t phase = state.next_phase;
  double damped = 0;  // phi + phi^2 + ... + phi^h
  double power = 1;
  for (int h = 1; h <= horizon; ++h) {
    power *= p.phi;
    damped += power;
    double value = state.level + damped * state.trend;
    if (m > 0) {
      value += state.season[phase];
      if (++phase == m) phase = 0;
    }
    mean[static_cast<size_t>(h - 1)] = value;
  }
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
    double value = s.level + (p.phi == 1.0 ? h * s.trend : DampedSum(p.phi, h) * s.trend);
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

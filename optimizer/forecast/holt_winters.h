#pragma once
// Additive Holt-Winters in its error-correction (ETS(A,A,A)) form: level,
// trend and an optional season, the smoothing parameters fitted by least
// one-step-ahead squared error. With no season it is Holt's linear method.
// Internal to the forecast library; forecast.h is the public face.

#include <vector>

#include "absl/types/span.h"

namespace fleetcap::forecast {

// ETS form: level += alpha*e, trend += beta*e, season += gamma*e, with
// 0 < alpha < 1, 0 < beta < alpha, 0 < gamma < 1 - alpha (the classic
// parameters' ranges; Hyndman et al. 2008, ch. 2). A damped trend (ETS(A,Ad,A))
// is multiplied by phi each step, 0.8 <= phi <= 0.98; phi = 1 is undamped.
struct SmoothingParameters {
  double alpha = 0;
  double beta = 0;
  double gamma = 0;
  double phi = 1.0;
};

struct ModelState {
  double level = 0;
  double trend = 0;
  std::vector<double> season;  // empty without a season
  size_t next_phase = 0;       // season index of the next point
};

// The points a model of `season_points` (0: none) needs to be initialised:
// two full seasons, or two points without a season.
size_t MinimumPoints(int season_points);

// Classic initialisation: the first two seasons' means give level and trend,
// their deviations the season (centred to sum to 0). Returns the state after
// the first season (or the first point without one) and, in `first`, the
// index the recursion continues from. Requires MinimumPoints(season) points.
ModelState InitialState(absl::Span<const double> y, int season_points, size_t* first);

// The parameters are fitted on the last FitWindowPoints of the history: six
// seasons (two initialise, four are scored), and at least six weeks of hours.
inline constexpr size_t kFitWindowSeasons = 6;
inline constexpr size_t kMinFitWindowPoints = 6 * 168;
size_t FitWindowPoints(int season_points);

struct RecursionErrors {
  double sse = 0;  // sum of squared one-step errors
  double sae = 0;  // sum of absolute one-step errors
  size_t count = 0;
};

// Runs the recursion over y[first..], updating `state`; HUGE_VAL sse if it
// diverges. With `residuals`, appends each one-step error to it.
RecursionErrors RunRecursion(absl::Span<const double> y, size_t first, const SmoothingParameters& p, ModelState& state,
                             std::vector<double>* residuals = nullptr);

struct FittedModel {
  int season_points = 0;
  SmoothingParameters parameters;
  ModelState state;               // after the last point of the history
  RecursionErrors errors;         // over the whole history
  size_t points_fitted = 0;       // the recent points the parameters were fitted on
  std::vector<double> residuals;  // one-step errors of the fitted parameters, in time order
  int evaluations = 0;
};

// One smoothing model to fit: its season in points (0: none), whether its
// trend is damped (phi fitted too) and whether it has one (false: beta 0,
// ETS(A,N,A) or, without a season, simple exponential smoothing).
struct SmoothingSpec {
  int season_points = 0;
  bool damped = false;
  bool trend = true;
};

struct FittedParameters {
  SmoothingParameters parameters;
  size_t points_fitted = 0;  // the recent points the parameters were fitted on
  int evaluations = 0;
};

// Fits each spec's parameters by Nelder-Mead on the one-step SSE over the
// last FitWindowPoints of y, from a fixed start with a fixed evaluation
// budget (deterministic). The searches run side by side: one pass over the
// series evaluates the next point of every search, so that their
// recursions, each a chain of dependent steps, overlap in the processor
// instead of waiting on one another. Each search takes the steps it would
// take alone. Requires MinimumPoints of each spec's season.
std::vector<FittedParameters> FitSmoothingParameters(absl::Span<const double> y,
                                                     const std::vector<SmoothingSpec>& specs);

// A model run over a history: its state after the last point and the sum of
// its one-step squared errors (HUGE_VAL when it diverged).
struct ModelRun {
  ModelState state;
  double sse = 0;
};

// Each spec run with its parameters over all of y from its initial state
// (InitialStateOf), side by side as the fits run: what RunRecursion gives
// each alone.
std::vector<ModelRun> RunSmoothingModels(absl::Span<const double> y, const std::vector<SmoothingSpec>& specs,
                                         const std::vector<SmoothingParameters>& parameters);

// FitSmoothingParameters for one model, then the model run over all of y.
FittedModel FitHoltWinters(absl::Span<const double> y, int season_points, bool damped = false, bool trend = true);

// InitialState, with the trend zeroed for a model without one.
ModelState InitialStateOf(absl::Span<const double> y, int season_points, bool trend, size_t* first);

// The point forecasts 1..horizon ahead of `state` (level + damped trend + season).
void ProjectMean(const ModelState& state, const SmoothingParameters& p, int horizon, std::vector<double>& mean);

// Point forecasts for hours 1..horizon after the history, and each one's
// standard deviation from the model's analytic h-step variance:
// sigma^2 * (1 + sum_{j<h} c_j^2), c_j = alpha + beta*j + gamma*[j mod m == 0].
void ProjectHoltWinters(const FittedModel& model, int horizon, std::vector<double>& mean, std::vector<double>& stddev);

}  // namespace fleetcap::forecast

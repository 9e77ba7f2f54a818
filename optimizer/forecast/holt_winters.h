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
// parameters' ranges; Hyndman et al. 2008, ch. 2).
struct SmoothingParameters {
  double alpha = 0;
  double beta = 0;
  double gamma = 0;
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

struct RecursionErrors {
  double sse = 0;  // sum of squared one-step errors
  double sae = 0;  // sum of absolute one-step errors
  size_t count = 0;
};

// Runs the recursion over y[first..], updating `state`; HUGE_VAL sse if it
// diverges.
RecursionErrors RunRecursion(absl::Span<const double> y, size_t first, const SmoothingParameters& p, ModelState& state);

struct FittedModel {
  int season_points = 0;
  SmoothingParameters parameters;
  ModelState state;  // after the last point of the history
  RecursionErrors errors;
  int evaluations = 0;
};

// Fits the parameters by Nelder-Mead on the one-step SSE over y, from a fixed
// start with a fixed evaluation budget (deterministic).
FittedModel FitHoltWinters(absl::Span<const double> y, int season_points);

// Point forecasts for hours 1..horizon after the history, and each one's
// standard deviation from the model's analytic h-step variance:
// sigma^2 * (1 + sum_{j<h} c_j^2), c_j = alpha + beta*j + gamma*[j mod m == 0].
void ProjectHoltWinters(const FittedModel& model, int horizon, std::vector<double>& mean, std::vector<double>& stddev);

}  // namespace fleetcap::forecast

#pragma once
// A small Nelder-Mead minimiser for the smoothing parameters: a handful of
// dimensions, no derivatives, a fixed start and a fixed evaluation budget, so
// a fit costs a known amount and gives the same answer on every run.

#include <vector>

#include "absl/functional/function_ref.h"

namespace fleetcap::forecast {

struct NelderMeadOptions {
  double initial_step = 1.0;         // simplex edge around the start, per dimension
  int max_evaluations = 100;         // the budget; the search stops when it is spent
  double relative_tolerance = 1e-7;  // stop when the simplex's values agree this closely
};

struct NelderMeadResult {
  std::vector<double> x;
  double value = 0;
  int evaluations = 0;
};

// Minimises `f` from `start`. `f` may return +infinity for points it rejects.
NelderMeadResult MinimizeNelderMead(absl::FunctionRef<double(const std::vector<double>&)> f,
                                    const std::vector<double>& start, const NelderMeadOptions& options);

}  // namespace fleetcap::forecast

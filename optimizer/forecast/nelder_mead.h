#pragma once
// A small Nelder-Mead minimiser for the smoothing parameters: a handful of
// dimensions, no derivatives, a fixed start and a fixed evaluation budget, so
// a fit costs a known amount and gives the same answer on every run.

#include <cstddef>
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

// The search one step at a time: it asks for the value at point() and is
// told it, until done(). Several searches can so run side by side and have
// their points evaluated together (the smoothing fits share one pass over
// the series, holt_winters.h); each takes the same steps as it would alone.
class NelderMeadSearch {
 public:
  NelderMeadSearch(const std::vector<double>& start, const NelderMeadOptions& options);

  bool done() const { return phase_ == Phase::kDone; }
  // The point whose value the search needs next; only while !done().
  const std::vector<double>& point() const;
  // The value at point(); NaN counts as +infinity (a rejected point).
  void Tell(double value);
  // The best point seen, its value and the evaluations spent.
  NelderMeadResult result() const;

 private:
  enum class Phase { kInitial, kReflect, kExpand, kContract, kShrink, kDone };

  // Starts an iteration: sorts the simplex, stops on the budget or when its
  // values agree, else asks for the reflection of the worst point.
  void Iterate();
  void Replace(std::vector<double>&& x, double value);
  // Asks for the next point of the shrink towards the best, or iterates.
  void ShrinkNext();

  NelderMeadOptions options_;
  size_t n_ = 0;
  std::vector<std::vector<double>> simplex_;
  std::vector<double> values_;
  int evaluations_ = 0;
  Phase phase_ = Phase::kInitial;
  size_t index_ = 0;  // the simplex point asked for (its first values, a shrink)
  size_t best_ = 0, worst_ = 0, second_worst_ = 0;
  std::vector<double> centroid_, reflected_, trial_;
  double reflected_value_ = 0;
};

// Minimises `f` from `start`. `f` may return +infinity for points it rejects.
NelderMeadResult MinimizeNelderMead(absl::FunctionRef<double(const std::vector<double>&)> f,
                                    const std::vector<double>& start, const NelderMeadOptions& options);

}  // namespace fleetcap::forecast

#include "optimizer/forecast/nelder_mead.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fleetcap::forecast {
namespace {

// The standard coefficients (Nelder and Mead 1965; Lagarias et al. 1998).
constexpr double kReflect = 1.0;
constexpr double kExpand = 2.0;
constexpr double kContract = 0.5;
constexpr double kShrink = 0.5;

std::vector<double> Along(const std::vector<double>& from, const std::vector<double>& to, double t) {
  std::vector<double> out(from.size());
  for (size_t i = 0; i < from.size(); ++i) out[i] = from[i] + t * (to[i] - from[i]);
  return out;
}

}  // namespace

NelderMeadSearch::NelderMeadSearch(const std::vector<double>& start, const NelderMeadOptions& options)
    : options_(options), n_(start.size()), simplex_(start.size() + 1, start), values_(start.size() + 1) {
  for (size_t i = 0; i < n_; ++i) simplex_[i + 1][i] += options_.initial_step;
}

const std::vector<double>& NelderMeadSearch::point() const {
  switch (phase_) {
    case Phase::kReflect:
      return reflected_;
    case Phase::kExpand:
    case Phase::kContract:
      return trial_;
    default:
      return simplex_[index_];
  }
}

void NelderMeadSearch::Tell(double value) {
  ++evaluations_;
  if (std::isnan(value)) value = HUGE_VAL;
  switch (phase_) {
    case Phase::kInitial:
      values_[index_] = value;
      if (++index_ > n_) Iterate();
      return;
    case Phase::kReflect:
      reflected_value_ = value;
      if (value < values_[best_]) {
        trial_ = Along(centroid_, simplex_[worst_], -kExpand);
        phase_ = Phase::kExpand;
        return;
      }
      if (value < values_[second_worst_]) {
        Replace(std::move(reflected_), value);
        return;
      }
      // Contract towards the better of the worst point and its reflection.
      trial_ = value < values_[worst_] ? Along(centroid_, reflected_, kContract)
                                       : Along(centroid_, simplex_[worst_], kContract);
      phase_ = Phase::kContract;
      return;
    case Phase::kExpand:
      if (value < reflected_value_) {
        Replace(std::move(trial_), value);
      } else {
        Replace(std::move(reflected_), reflected_value_);
      }
      return;
    case Phase::kContract:
      if (value < std::min(reflected_value_, values_[worst_])) {
        Replace(std::move(trial_), value);
        return;
      }
      phase_ = Phase::kShrink;
      index_ = 0;
      ShrinkNext();
      return;
    case Phase::kShrink:
      values_[index_] = value;
      ++index_;
      ShrinkNext();
      return;
    case Phase::kDone:
      return;
  }
}

void NelderMeadSearch::ShrinkNext() {
  if (index_ == best_) ++index_;
  if (index_ > n_) {
    Iterate();
    return;
  }
  simplex_[index_] = Along(simplex_[best_], simplex_[index_], kShrink);
}

void NelderMeadSearch::Replace(std::vector<double>&& x, double value) {
  simplex_[worst_] = std::move(x);
  values_[worst_] = value;
  Iterate();
}

void NelderMeadSearch::Iterate() {
  if (evaluations_ >= options_.max_evaluations) {
    phase_ = Phase::kDone;
    return;
  }
  // Stable sort on (value, index): ties break the same way on every run.
  std::vector<size_t> order(n_ + 1);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values_[a] < values_[b]; });
  best_ = order.front();
  worst_ = order.back();
  second_worst_ = order[n_ - 1];
  const double spread = std::abs(values_[worst_] - values_[best_]);
  if (std::isfinite(values_[worst_]) &&
      spread <= options_.relative_tolerance * (std::abs(values_[best_]) + options_.relative_tolerance)) {
    phase_ = Phase::kDone;
    return;
  }
  centroid_.assign(n_, 0.0);
  for (size_t i = 0; i <= n_; ++i) {
    if (i == worst_) continue;
    for (size_t d = 0; d < n_; ++d) centroid_[d] += simplex_[i][d] / static_cast<double>(n_);
  }
  reflected_ = Along(centroid_, simplex_[worst_], -kReflect);
  phase_ = Phase::kReflect;
}

NelderMeadResult NelderMeadSearch::result() const {
  size_t best = 0;
  for (size_t i = 1; i <= n_; ++i) {
    if (values_[i] < values_[best]) best = i;
  }
  return NelderMeadResult{simplex_[best], values_[best], evaluations_};
}

NelderMeadResult MinimizeNelderMead(absl::FunctionRef<double(const std::vector<double>&)> f,
                                    const std::vector<double>& start, const NelderMeadOptions& options) {
  NelderMeadSearch search(start, options);
  while (!search.done()) search.Tell(f(search.point()));
  return search.result();
}

}  // namespace fleetcap::forecast

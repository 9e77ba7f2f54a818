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

NelderMeadResult MinimizeNelderMead(absl::FunctionRef<double(const std::vector<double>&)> f,
                                    const std::vector<double>& start, const NelderMeadOptions& options) {
  const size_t n = start.size();
  int evaluations = 0;
  auto eval = [&](const std::vector<double>& x) {
    ++evaluations;
    double v = f(x);
    return std::isnan(v) ? HUGE_VAL : v;
  };

  std::vector<std::vector<double>> simplex(n + 1, start);
  for (size_t i = 0; i < n; ++i) simplex[i + 1][i] += options.initial_step;
  std::vector<double> values(n + 1);
  for (size_t i = 0; i <= n; ++i) values[i] = eval(simplex[i]);

  std::vector<size_t> order(n + 1);
  while (evaluations < options.max_evaluations) {
    // Stable sort on (value, index): ties break the same way on every run.
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return values[a] < values[b]; });
    const size_t best = order.front();
    const size_t worst = order.back();
    const size_t second_worst = order[n - 1];
    const double spread = std::abs(values[worst] - values[best]);
    if (std::isfinite(values[worst]) &&
        spread <= options.relative_tolerance * (std::abs(values[best]) + options.relative_tolerance)) {
      break;
    }

    std::vector<double> centroid(n, 0.0);
    for (size_t i = 0; i <= n; ++i) {
      if (i == worst) continue;
      for (size_t d = 0; d < n; ++d) centroid[d] += simplex[i][d] / static_cast<double>(n);
    }

    std::vector<double> reflected = Along(centroid, simplex[worst], -kReflect);
    double reflected_value = eval(reflected);
    if (reflected_value < values[best]) {
      std::vector<double> expanded = Along(centroid, simplex[worst], -kExpand);
      double expanded_value = eval(expanded);
      if (expanded_value < reflected_value) {
        simplex[worst] = std::move(expanded);
        values[worst] = expanded_value;
      } else {
        simplex[worst] = std::move(reflected);
        values[worst] = reflected_value;
      }
      continue;
    }
    if (reflected_value < values[second_worst]) {
      simplex[worst] = std::move(reflected);
      values[worst] = reflected_value;
      continue;
    }
    // Contract towards the better of the worst point and its reflection.
    const bool outside = reflected_value < values[worst];
    std::vector<double> contracted =
        outside ? Along(centroid, reflected, kContract) : Along(centroid, simplex[worst], kContract);
    double contracted_value = eval(contracted);
    if (contracted_value < std::min(reflected_value, values[worst])) {
      simplex[worst] = std::move(contracted);
      values[worst] = contracted_value;
      continue;
    }
    for (size_t i = 0; i <= n; ++i) {
      if (i == best) continue;
      simplex[i] = Along(simplex[best], simplex[i], kShrink);
      values[i] = eval(simplex[i]);
    }
  }

  size_t best = 0;
  for (size_t i = 1; i <= n; ++i) {
    if (values[i] < values[best]) best = i;
  }
  return NelderMeadResult{simplex[best], values[best], evaluations};
}

}  // namespace fleetcap::forecast

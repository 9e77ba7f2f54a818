#include "optimizer/forecast/nelder_mead.h"

#include <cmath>

#include "gtest/gtest.h"

namespace fleetcap::forecast {
namespace {

TEST(NelderMeadTest, FindsTheMinimumOfAShiftedQuadratic) {
  auto f = [](const std::vector<double>& x) {
    return (x[0] - 1.5) * (x[0] - 1.5) + 3 * (x[1] + 0.5) * (x[1] + 0.5) + (x[2] - 2) * (x[2] - 2) + 7;
  };
  NelderMeadOptions options;
  options.max_evaluations = 500;
  options.relative_tolerance = 1e-12;
  const NelderMeadResult r = MinimizeNelderMead(f, {0, 0, 0}, options);
  EXPECT_NEAR(r.x[0], 1.5, 1e-3);
  EXPECT_NEAR(r.x[1], -0.5, 1e-3);
  EXPECT_NEAR(r.x[2], 2.0, 1e-3);
  EXPECT_NEAR(r.value, 7.0, 1e-6);
}

TEST(NelderMeadTest, StopsWithinTheBudget) {
  int calls = 0;
  auto f = [&](const std::vector<double>& x) {
    ++calls;
    return 100 * std::pow(x[1] - x[0] * x[0], 2) + std::pow(1 - x[0], 2);  // Rosenbrock
  };
  NelderMeadOptions options;
  options.max_evaluations = 40;
  const NelderMeadResult r = MinimizeNelderMead(f, {-1.2, 1}, options);
  EXPECT_EQ(r.evaluations, calls);
  // A step may take up to n + 1 evaluations (a shrink) past the last check.
  EXPECT_LE(calls, 40 + 3);
  EXPECT_LT(r.value, 24.2);  // better than the start, f(-1.2, 1) = 24.2
}

TEST(NelderMeadTest, RejectedPointsAreAvoided) {
  // Infinite left of 1: the minimum of (x - 0)^2 inside x >= 1 is at 1.
  auto f = [](const std::vector<double>& x) { return x[0] < 1 ? HUGE_VAL : x[0] * x[0]; };
  NelderMeadOptions options;
  options.max_evaluations = 200;
  const NelderMeadResult r = MinimizeNelderMead(f, {3}, options);
  EXPECT_NEAR(r.x[0], 1.0, 1e-2);
}

}  // namespace
}  // namespace fleetcap::forecast

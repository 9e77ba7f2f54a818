#include "optimizer/forecast/holt_winters.h"

#include <cmath>

#include "gtest/gtest.h"

namespace fleetcap::forecast {
namespace {

TEST(HoltWintersTest, InitialSeasonIsCentredAndLevelAndTrendComeFromTheFirstTwoSeasons) {
  // Season of 4: +1, -1, +2, -2 on a line rising 0.5 per point.
  std::vector<double> y;
  const double pattern[4] = {1, -1, 2, -2};
  for (int t = 0; t < 8; ++t) y.push_back(10 + 0.5 * t + pattern[t % 4]);
  size_t first = 0;
  const ModelState s = InitialState(y, 4, &first);
  EXPECT_EQ(first, 4u);
  EXPECT_NEAR(s.trend, 0.5, 1e-12);
  EXPECT_NEAR(s.level, 10 + 0.5 * 3, 1e-12);  // the line at the first season's last point
  for (int j = 0; j < 4; ++j) EXPECT_NEAR(s.season[j], pattern[j], 1e-12);
}

TEST(HoltWintersTest, ANoiselessSeasonalLineIsForecastExactlyWithNoError) {
  std::vector<double> y;
  const double pattern[4] = {1, -1, 2, -2};
  for (int t = 0; t < 40; ++t) y.push_back(10 + 0.5 * t + pattern[t % 4]);
  const FittedModel model = FitHoltWinters(y, 4);
  EXPECT_NEAR(model.errors.sse, 0.0, 1e-18);
  std::vector<double> mean;
  std::vector<double> stddev;
  ProjectHoltWinters(model, 8, mean, stddev);
  for (int h = 0; h < 8; ++h) {
    EXPECT_NEAR(mean[h], 10 + 0.5 * (40 + h) + pattern[(40 + h) % 4], 1e-9);
    EXPECT_NEAR(stddev[h], 0.0, 1e-9);
  }
}

TEST(HoltWintersTest, HStepVarianceFollowsTheAnalyticFormula) {
  FittedModel model;
  model.season_points = 2;
  model.parameters = {0.5, 0.1, 0.2};
  model.state.season = {0, 0};
  model.errors.sse = 4.0;
  model.errors.count = 1;  // sigma^2 = 4
  std::vector<double> mean;
  std::vector<double> stddev;
  ProjectHoltWinters(model, 3, mean, stddev);
  // c_1 = 0.5 + 0.1 = 0.6; c_2 = 0.5 + 0.2 + 0.2 (j = 2 is a whole season) = 0.9.
  EXPECT_NEAR(stddev[0], 2.0, 1e-12);
  EXPECT_NEAR(stddev[1], 2.0 * std::sqrt(1 + 0.36), 1e-12);
  EXPECT_NEAR(stddev[2], 2.0 * std::sqrt(1 + 0.36 + 0.81), 1e-12);
}

TEST(HoltWintersTest, FittedParametersStayInTheirRanges) {
  std::vector<double> y;
  for (int t = 0; t < 200; ++t) y.push_back(50 + 10 * std::sin(t * 0.7) + 5 * std::cos(t * 2.3));
  const FittedModel model = FitHoltWinters(y, 24);
  const SmoothingParameters& p = model.parameters;
  EXPECT_GT(p.alpha, 0.0);
  EXPECT_LT(p.alpha, 1.0);
  EXPECT_GT(p.beta, 0.0);
  EXPECT_LT(p.beta, p.alpha);
  EXPECT_GT(p.gamma, 0.0);
  EXPECT_LT(p.gamma, 1.0 - p.alpha);
}

}  // namespace
}  // namespace fleetcap::forecast

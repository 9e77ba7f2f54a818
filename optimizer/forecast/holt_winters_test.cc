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

TEST(HoltWintersTest, ModelsFittedTogetherGetExactlyTheParametersEachGetsAlone) {
  // Seven models, two groups of lanes, seasons and starts that differ.
  std::vector<double> y;
  for (int t = 0; t < 1500; ++t) {
    y.push_back(40 + 0.01 * t + 8 * std::sin(t * 2 * M_PI / 24) + 3 * std::sin(t * 2 * M_PI / 168) +
                2 * std::cos(t * 1.7));
  }
  const std::vector<SmoothingSpec> specs = {{0, false, false},  {24, false, false}, {24, true, true}, {24, false, true},
                                            {168, false, true}, {0, false, true},   {12, true, true}};
  const std::vector<FittedParameters> together = FitSmoothingParameters(y, specs);
  ASSERT_EQ(together.size(), specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(i);
    const FittedParameters alone = FitSmoothingParameters(y, {specs[i]}).front();
    EXPECT_EQ(together[i].parameters.alpha, alone.parameters.alpha);
    EXPECT_EQ(together[i].parameters.beta, alone.parameters.beta);
    EXPECT_EQ(together[i].parameters.gamma, alone.parameters.gamma);
    EXPECT_EQ(together[i].parameters.phi, alone.parameters.phi);
    EXPECT_EQ(together[i].evaluations, alone.evaluations);
    EXPECT_EQ(together[i].points_fitted, FitWindowPoints(specs[i].season_points));
    EXPECT_GT(together[i].evaluations, 10);
  }
}

TEST(HoltWintersTest, AFitIsTheSearchOverTheRecursionsOneStepError) {
  // The fitted parameters' one-step SSE over the fit window, by RunRecursion,
  // is no worse than the starting point's: the lanes score what the
  // recursion scores.
  std::vector<double> y;
  for (int t = 0; t < 1200; ++t) y.push_back(30 + 6 * std::sin(t * 2 * M_PI / 24) + 2 * std::cos(t * 2.9));
  const FittedParameters fit = FitSmoothingParameters(y, {SmoothingSpec{24, false, true}}).front();
  const absl::Span<const double> recent = absl::Span<const double>(y).subspan(y.size() - fit.points_fitted);
  auto sse = [&](const SmoothingParameters& p) {
    size_t first = 0;
    ModelState state = InitialStateOf(recent, 24, true, &first);
    return RunRecursion(recent, first, p, state).sse;
  };
  const SmoothingParameters start{0.2, 0.2 * 0.05, 0.8 * 0.1, 1.0};
  EXPECT_LT(sse(fit.parameters), sse(start));
}

}  // namespace
}  // namespace fleetcap::forecast

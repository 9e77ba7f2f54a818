#include "optimizer/forecast/forecast.h"

#include <cmath>
#include <limits>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::forecast {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kStart = absl::FromUnixSeconds(1'700'000'000 / 3600 * 3600);

// A fleet's held devices: a base, a trend, a working-day cycle and a quieter
// weekend, plus deterministic noise.
double Held(size_t t, double trend_per_hour) {
  const double hour = static_cast<double>(t % 24);
  const bool weekend = (t / 24) % 7 >= 5;
  const double daily = 20.0 * std::sin(2 * M_PI * (hour - 6) / 24.0);
  const double noise = 3.0 * std::sin(static_cast<double>(t) * 12.9898) * std::cos(static_cast<double>(t) * 4.1414);
  return 100.0 + trend_per_hour * static_cast<double>(t) + daily - (weekend ? 30.0 : 0.0) + noise;
}

HourlySeries Series(size_t hours, double trend_per_hour = 0.02) {
  HourlySeries s{kStart, {}};
  for (size_t t = 0; t < hours; ++t) s.values.push_back(Held(t, trend_per_hour));
  return s;
}

ForecastOptions Horizon(int hours) {
  ForecastOptions o;
  o.horizon_hours = hours;
  return o;
}

TEST(ForecastHourlyTest, FourWeeksGetTheWeeklyModelWhichFollowsTheWeekAndTheTrend) {
  const HourlySeries history = Series(4 * 168);
  auto f = ForecastHourly(history, Horizon(168));
  ASSERT_THAT(f, IsOk());
  // The weekly model wins the backtest of the last week's seven daily
  // origins, and is the richest candidate: no reason to give.
  EXPECT_EQ(f->model, ModelKind::kWeeklyHoltWinters);
  EXPECT_EQ(f->model_name, "holt_winters_weekly");
  EXPECT_EQ(f->fallback_reason, "");
  EXPECT_EQ(f->fit.season_points, 168);
  EXPECT_EQ(f->fit.backtest_origins, 7);
  EXPECT_EQ(f->fit.backtest_lead, 24);
  // Fitted on the three weeks before the backtest's first origin.
  EXPECT_EQ(f->fit.points_used, 3 * 168);
  EXPECT_EQ(f->start, kStart + absl::Hours(4 * 168));
  ASSERT_EQ(f->p50.size(), 168u);
  // The next week is the pattern continued: within the noise (amplitude 3)
  // plus a little, at every hour including the weekend's drop.
  double worst = 0;
  for (size_t h = 0; h < 168; ++h) worst = std::max(worst, std::abs(f->p50[h] - Held(4 * 168 + h, 0.02)));
  EXPECT_LT(worst, 8.0);
  EXPECT_LT(f->fit.in_sample_mase, 1.0);
  EXPECT_GT(f->fit.alpha, 0.0);
  EXPECT_GT(f->fit.objective_evaluations, 0);
}

TEST(ForecastHourlyTest, NinetyDayDefaultHorizonCarriesTheTrend) {
  const HourlySeries history = Series(8 * 168, 0.05);
  auto f = ForecastHourly(history, ForecastOptions{});
  ASSERT_THAT(f, IsOk());
  ASSERT_EQ(f->p50.size(), 90u * 24);
  EXPECT_EQ(f->fit.points_used, 6 * 168);  // fitted on the last six weeks of the eight
  // Same hour of the week, 12 weeks apart: the trend adds 0.05 * 2016 = 100.8.
  const double gain = f->p50[12 * 168 + 10] - f->p50[10];
  EXPECT_NEAR(gain, 100.8, 15.0);
}

TEST(ForecastHourlyTest, FiveDaysAreTooShortForTheBacktestAndFallBackToTheDailyModel) {
  auto f = ForecastHourly(Series(120), Horizon(48));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->model, ModelKind::kDailyHoltWinters);
  EXPECT_EQ(f->fit.season_points, 24);
  EXPECT_EQ(f->fit.backtest_origins, 0);
  EXPECT_EQ(f->fallback_reason, "series of 120 hours is shorter than two weeks (336 hours): no weekly seasonality");
}

TEST(ForecastHourlyTest, TenDaysChooseADailyModelByTheBacktestAndSayWhy) {
  // Four daily origins after six days: no weekly candidate (under a week
  // before the first origin), so the weekend's drop is nobody's to learn.
  auto f = ForecastHourly(Series(240), Horizon(48));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->fit.backtest_origins, 4);
  EXPECT_EQ(f->fit.season_points, 24);
  EXPECT_GT(f->fit.backtest_mae, 0.0);
  EXPECT_THAT(f->fallback_reason, HasSubstr("chosen by a backtest of the last 4 origins, 24 points ahead"));
  EXPECT_THAT(f->fallback_reason, HasSubstr("for holt_winters_daily"));
}

TEST(ForecastHourlyTest, ALastBucketThatCollapsesDoesNotBecomeTheLevel) {
  // Three weeks of a daily cycle with noise, its last hour dropping to 0 (a
  // cut-off or an outage): the backtest has never seen the last value win,
  // so the next day follows the cycle, not the drop.
  HourlySeries s = Series(3 * 168, 0.0);
  s.values.back() = 0;
  auto f = ForecastHourly(s, Horizon(24));
  ASSERT_THAT(f, IsOk());
  EXPECT_NE(f->model, ModelKind::kLastValue);
  for (size_t h = 0; h < 24; ++h) EXPECT_GT(f->p50[h], 30.0) << h;
}

TEST(ForecastHourlyTest, ALevelThatMovedAndStayedIsFollowed) {
  // Two weeks near 10, then four days near 30: the backtest's origins have
  // seen the new level hold, so the forecast starts from it.
  HourlySeries s{kStart, {}};
  for (size_t t = 0; t < 18 * 24; ++t) {
    const double noise = std::sin(static_cast<double>(t) * 12.9898) * std::cos(static_cast<double>(t) * 4.1414);
    s.values.push_back((t < 14 * 24 ? 10.0 : 30.0) + noise);
  }
  auto f = ForecastHourly(s, Horizon(48));
  ASSERT_THAT(f, IsOk());
  for (size_t h = 0; h < 48; ++h) EXPECT_NEAR(f->p50[h], 30.0, 3.0) << h << " " << f->model_name;
}

TEST(ForecastHourlyTest, ANearlyConstantSeriesWithOneSpikeGetsABandThatIsNotZeroWide) {
  HourlySeries s{kStart, std::vector<double>(400, 12.0)};
  s.values[390] = 40.0;
  auto f = ForecastHourly(s, Horizon(48));
  ASSERT_THAT(f, IsOk());
  // The spike is not the level: at most its own hour of each day repeats it.
  int off_level = 0;
  for (size_t h = 0; h < 48; ++h) {
    off_level += std::abs(f->p50[h] - 12.0) > 1.0;
    EXPECT_GT(f->p95[h], f->p05[h]) << h;
  }
  EXPECT_LE(off_level, 2);
  // A constant history is the one that gets a band of no width.
  auto constant = ForecastHourly(HourlySeries{kStart, std::vector<double>(400, 12.0)}, Horizon(48));
  ASSERT_THAT(constant, IsOk());
  EXPECT_EQ(constant->p95[0], constant->p05[0]);
}

TEST(ForecastHourlyTest, TheBandCoversAboutNinetyPercentOfWhatComesNext) {
  // A daily cycle with normal noise, forecast a day ahead from 20 successive
  // days: the [p05, p95] band, calibrated by the backtest's own errors, holds
  // most of the next day's hours (90% nominal).
  std::mt19937 random(5);
  std::normal_distribution<double> noise(0.0, 4.0);
  std::vector<double> y;
  for (size_t t = 0; t < 60 * 24; ++t) y.push_back(80 + 20 * std::sin(2 * M_PI * (t % 24) / 24.0) + noise(random));
  int inside = 0;
  int points = 0;
  for (size_t origin = 40 * 24; origin + 24 <= y.size(); origin += 24) {
    auto f = ForecastHourly(HourlySeries{kStart, std::vector<double>(y.begin(), y.begin() + origin)}, Horizon(24));
    ASSERT_THAT(f, IsOk());
    for (size_t h = 0; h < 24; ++h) {
      inside += y[origin + h] >= f->p05[h] && y[origin + h] <= f->p95[h];
      ++points;
    }
  }
  EXPECT_GE(inside, 0.8 * points);
  EXPECT_LE(inside, 0.97 * points);
}

TEST(ForecastHourlyTest, FortyHoursFallBackToHoltLinearAndSayWhy) {
  auto f = ForecastHourly(Series(40), Horizon(24));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->model, ModelKind::kHoltLinear);
  EXPECT_EQ(f->model_name, "holt_linear");
  EXPECT_EQ(f->fit.gamma, 0.0);
  EXPECT_THAT(f->fallback_reason, HasSubstr("series of 40 hours is shorter than two days (48 hours)"));
}

TEST(ForecastHourlyTest, ThreePointsGiveTheMeanWithABand) {
  HourlySeries s{kStart, {4, 6, 8}};
  auto f = ForecastHourly(s, Horizon(5));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->model, ModelKind::kMean);
  EXPECT_THAT(f->fallback_reason, HasSubstr("no trend, flat at the mean"));
  for (size_t h = 0; h < 5; ++h) {
    EXPECT_DOUBLE_EQ(f->p50[h], 6.0);
    EXPECT_GT(f->p95[h], f->p50[h]);
    EXPECT_LT(f->p05[h], f->p50[h]);
  }
}

TEST(ForecastHourlyTest, ASeasonInPointsServesOtherCadences) {
  // 5-minute points with an hourly (12-point) cycle.
  HourlySeries s{kStart, {}};
  for (int t = 0; t < 120; ++t) s.values.push_back(50 + 10 * std::sin(2 * M_PI * t / 12.0));
  ForecastOptions o = Horizon(12);
  o.season_points = 12;
  auto f = ForecastHourly(s, o);
  ASSERT_THAT(f, IsOk());
  // A noiseless cycle: the seasonal naive is exact, and as simple as it gets.
  EXPECT_EQ(f->model, ModelKind::kSeasonalNaive);
  EXPECT_EQ(f->fit.season_points, 12);
  for (int h = 0; h < 12; ++h) EXPECT_NEAR(f->p50[h], 50 + 10 * std::sin(2 * M_PI * (120 + h) / 12.0), 0.5);

  s.values.resize(20);
  f = ForecastHourly(s, o);
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->model, ModelKind::kHoltLinear);
  EXPECT_THAT(f->fallback_reason, HasSubstr("series of 20 points is shorter than two seasons (24 points)"));
}

TEST(ForecastHourlyTest, QuantilesAreOrderedClampedAtZeroAndWiden) {
  // Near zero with noise: the lower band would go negative.
  HourlySeries s{kStart, {}};
  for (size_t t = 0; t < 400; ++t) s.values.push_back(std::max(0.0, 1.0 + 2.0 * std::sin(t * 1.7)));
  auto f = ForecastHourly(s, Horizon(500));
  ASSERT_THAT(f, IsOk());
  for (size_t h = 0; h < 500; ++h) {
    EXPECT_GE(f->p05[h], 0.0);
    EXPECT_LE(f->p05[h], f->p10[h]);
    EXPECT_LE(f->p10[h], f->p50[h]);
    EXPECT_LE(f->p50[h], f->p90[h]);
    EXPECT_LE(f->p90[h], f->p95[h]);
  }
  for (size_t h = 1; h < 500; ++h) EXPECT_GE(f->p95[h] - f->p50[h], f->p95[h - 1] - f->p50[h - 1] - 1e-9);
}

TEST(ForecastHourlyTest, AWanderingLevelGivesABandThatWidensWithTheHorizon) {
  HourlySeries s{kStart, {}};
  // std::mt19937's output is fixed by the standard: the same walk everywhere.
  std::mt19937 random(7);
  double level = 200;
  for (size_t t = 0; t < 400; ++t) {
    level += 4.0 * (static_cast<double>(random()) / 4294967296.0 - 0.5);
    s.values.push_back(level);
  }
  auto f = ForecastHourly(s, Horizon(200));
  ASSERT_THAT(f, IsOk());
  EXPECT_GT(f->fit.alpha, 0.5);
  EXPECT_GT(f->p95[199] - f->p05[199], 3 * (f->p95[0] - f->p05[0]));
}

TEST(ForecastHourlyTest, SameInputSameOutputBitForBit) {
  const HourlySeries history = Series(3 * 168 + 5);
  auto a = ForecastHourly(history, Horizon(300));
  auto b = ForecastHourly(history, Horizon(300));
  ASSERT_THAT(a, IsOk());
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(a->p50, b->p50);
  EXPECT_EQ(a->p95, b->p95);
  EXPECT_EQ(a->fit.alpha, b->fit.alpha);
}

TEST(ForecastHourlyTest, HostileInputIsRefusedNamingTheField) {
  const ForecastOptions o;
  EXPECT_THAT(ForecastHourly(HourlySeries{kStart, {}}, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series.values: empty")));
  EXPECT_THAT(ForecastHourly(HourlySeries{kStart, {1, std::nan(""), 2}}, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series.values[1]")));
  EXPECT_THAT(ForecastHourly(HourlySeries{kStart, {1, 2, std::numeric_limits<double>::infinity()}}, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series.values[2]")));
  EXPECT_THAT(ForecastHourly(HourlySeries{kStart, {1, -0.5}}, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series.values[1]: -0.5")));
  EXPECT_THAT(
      ForecastHourly(HourlySeries{kStart, {1, 1e300, 2}}, o),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series.values[1]: 1e+300 is more than the limit")));
  EXPECT_THAT(ForecastHourly(HourlySeries{kStart, std::vector<double>(kMaxSeriesPoints + 1, 1.0)}, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("more than the limit")));
  EXPECT_THAT(ForecastHourly(HourlySeries{kStart + absl::Minutes(30), {1, 2}}, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series.start")));
  EXPECT_THAT(ForecastHourly(HourlySeries{absl::InfiniteFuture(), {1, 2}}, o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("series.start")));
  EXPECT_THAT(ForecastHourly(Series(10), Horizon(0)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("options.horizon_hours")));
  EXPECT_THAT(ForecastHourly(Series(10), Horizon(kMaxHorizonHours + 1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("options.horizon_hours")));
  ForecastOptions negative_season;
  negative_season.season_points = -1;
  EXPECT_THAT(ForecastHourly(Series(10), negative_season),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("options.season_points")));
}

TEST(ForecastSeasonalNaiveTest, RepeatsTheLastWeekWithABandGrowingEachWeek) {
  const HourlySeries history = Series(3 * 168);
  auto f = ForecastSeasonalNaive(history, Horizon(2 * 168));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->model_name, "seasonal_naive");
  EXPECT_EQ(f->fit.season_points, 168);
  for (size_t h = 0; h < 2 * 168; ++h) EXPECT_DOUBLE_EQ(f->p50[h], std::max(0.0, history.values[2 * 168 + h % 168]));
  const double first_week = f->p95[0] - f->p50[0];
  const double second_week = f->p95[168] - f->p50[168];
  EXPECT_NEAR(second_week / first_week, std::sqrt(2.0), 1e-9);
}

TEST(ForecastSeasonalNaiveTest, ShortSeriesRepeatTheLastValue) {
  auto f = ForecastSeasonalNaive(HourlySeries{kStart, {3, 5}}, Horizon(4));
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->fit.season_points, 1);
  EXPECT_EQ(f->p50, std::vector<double>(4, 5.0));
}

}  // namespace
}  // namespace fleetcap::forecast

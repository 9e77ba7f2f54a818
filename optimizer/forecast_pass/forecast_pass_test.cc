#include "optimizer/forecast_pass/forecast_pass.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "optimizer/chargeback/policy_timeline_source.h"
#include "store/memory_capacity_repository.h"
#include "store/memory_demand_history_repository.h"
#include "store/memory_forecast_repository.h"
#include "store/memory_pending_waits_repository.h"
#include "store/memory_team_facts_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::optimizer {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::Each;
using ::testing::HasSubstr;

const absl::Time kForecastStart = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

// vision owns ml, speech the speech-* namespaces; h100 is the H100s of any
// cluster, t4 the T4s.
constexpr const char* kForecastPolicy = R"(version: 1
teams:
  - name: vision
  - name: speech
namespaces:
  - namespace: ml
    team: vision
  - pattern: "speech-*"
    team: speech
flavors:
  - name: h100
    model: H100
    capacity: 4
  - name: t4
    model: T4
    capacity: 8
)";

class ForecastPassTest : public ::testing::Test {
 protected:
  ForecastPassTest()
      : clock_(kForecastStart + absl::Hours(24 * 3) + absl::Minutes(30)),
        policies_(chargeback::PoliciesOf(&teams_)),
        pass_({&history_, &waits_, &capacity_, &teams_, &policies_, &forecasts_}, Options(), &clock_) {}

  static ForecastPassOptions Options() {
    ForecastPassOptions o;
    o.lookback = absl::Hours(72);
    o.horizon_hours = 24 * 7;
    o.keep_runs = 2;
    return o;
  }

  // `milli` of `model` held by `team` over the whole hour starting `hour`.
  void Held(const std::string& team, absl::Time hour, int64_t milli, const std::string& model = "H100") {
    history_.AddHeld({"c1", model, team, hour, milli * 3600});
  }

  store::ForecastSeriesRecord Series(const std::string& flavor, const std::string& team, const std::string& what) {
    auto run = forecasts_.LatestRun();
    EXPECT_THAT(run, IsOk());
    if (!run.ok() || !run->has_value()) return {};
    auto series = forecasts_.Series((*run)->run_id, {flavor, team, what});
    EXPECT_THAT(series, IsOk());
    EXPECT_TRUE(series.ok() && series->has_value()) << flavor << "/" << team << "/" << what;
    return series.ok() && series->has_value() ? **series : store::ForecastSeriesRecord{};
  }

  SimulatedClock clock_;
  store::MemoryTeamFactsRepository teams_;
  policy::PolicyTimeline policies_;
  store::MemoryDemandHistoryRepository history_;
  store::MemoryPendingWaitsRepository waits_;
  store::MemoryCapacityRepository capacity_;
  store::MemoryForecastRepository forecasts_;
  ForecastPass pass_;
};

TEST_F(ForecastPassTest, OnlyTheWholeHoursBeforeTheWatermarkAreObservations) {
  // The hour in progress at the watermark (its chargeback not closed yet)
  // and a wait still going on are not part of the history: its last hour is
  // the last closed one, whole.
  teams_.Apply(kForecastPolicy, kForecastStart);
  const absl::Time watermark = kForecastStart + absl::Hours(72);
  for (int h = 0; h < 72; ++h) Held("vision", kForecastStart + absl::Hours(h), 2000);
  Held("vision", watermark, 100);  // the open hour's first minutes
  waits_.Add({{"c1", "uid-v", "ml", "", "nvidia.com/gpu", "H100", 1000, watermark - absl::Minutes(30)}, std::nullopt});
  auto report = pass_.Run(watermark);
  ASSERT_THAT(report, IsOk());
  ASSERT_TRUE(report->run_id.has_value()) << report->skipped;
  const store::ForecastSeriesRecord vision = Series("h100", "vision", "held");
  ASSERT_EQ(vision.history.size(), 72u);
  EXPECT_EQ(vision.history.back(), 2000);
  EXPECT_NEAR(static_cast<double>(vision.p50[0]), 2000, 1);
  const store::ForecastSeriesRecord pending = Series("h100", "vision", "pending");
  ASSERT_EQ(pending.history.size(), 72u);
  EXPECT_EQ(pending.history.back(), 500);  // half of the last closed hour, nothing after it
}

TEST_F(ForecastPassTest, ANearlyEmptyLastHourDoesNotBecomeTheForecastLevel) {
  // Three weeks of a daily cycle (4 to 12 devices), then a last hour in which
  // almost nothing was held (the data ended early in it): the model is the
  // one the series' own backtest chose, and the next days follow the cycle
  // rather than the last hour's level.
  teams_.Apply(kForecastPolicy, kForecastStart);
  const int hours = 21 * 24;
  const absl::Time watermark = kForecastStart + absl::Hours(hours);
  for (int h = 0; h + 1 < hours; ++h) Held("vision", kForecastStart + absl::Hours(h), h % 24 < 8 ? 4000 : 12000);
  Held("vision", watermark - absl::Hours(1), 150);
  ForecastPassOptions options = Options();
  options.lookback = absl::Hours(hours);
  SimulatedClock clock(watermark + absl::Minutes(30));
  ForecastPass pass({&history_, &waits_, &capacity_, &teams_, &policies_, &forecasts_}, options, &clock);
  auto report = pass.Run(watermark);
  ASSERT_THAT(report, IsOk());
  ASSERT_TRUE(report->run_id.has_value()) << report->skipped;

  const store::ForecastSeriesRecord vision = Series("h100", "vision", "held");
  ASSERT_EQ(vision.history.size(), static_cast<size_t>(hours));
  EXPECT_NE(vision.model, "last_value");
  EXPECT_GT(vision.fit.at("backtest_origins"), 0);
  // Each hour of the next two days is near its hour of the cycle, not 0.15;
  // a seasonal model may repeat the short hour in its own hour of the day.
  for (size_t h = 0; h < 48; ++h) {
    if (h % 24 == 23) continue;
    EXPECT_NEAR(static_cast<double>(vision.p50[h]), h % 24 < 8 ? 4000 : 12000, 1000) << h << " " << vision.model;
  }
}

TEST_F(ForecastPassTest, ForecastsEachTeamAndTheFlavorsTotalFromTheHistory) {
  teams_.Apply(kForecastPolicy, kForecastStart);
  const absl::Time watermark = kForecastStart + absl::Hours(72);
  for (int h = 0; h < 72; ++h) {
    Held("vision", kForecastStart + absl::Hours(h), 2000);
    Held("speech", kForecastStart + absl::Hours(h), h % 24 < 12 ? 500 : 1500);
  }
  for (int i = 0; i < 3; ++i) capacity_.AddDevice("c1", "H100", kForecastStart);
  capacity_.AddDevice("c1", "H100", kForecastStart + absl::Hours(48));  // a fourth from the third day
  // A speech pod waits 90 minutes for two H100s, in the last two hours.
  waits_.Add(
      {{"c1", "uid-s", "speech-asr", "", "nvidia.com/gpu", "H100", 2000, watermark - absl::Minutes(90)}, std::nullopt});
  auto report = pass_.Run(watermark);
  ASSERT_THAT(report, IsOk());
  ASSERT_TRUE(report->run_id.has_value()) << report->skipped;
  EXPECT_EQ(report->failed, 0);

  auto run = forecasts_.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ((*run)->forecast_start, watermark);
  EXPECT_EQ((*run)->history_start, kForecastStart);
  EXPECT_EQ((*run)->horizon_hours, 24 * 7);
  EXPECT_EQ((*run)->computed_at, clock_.Now());

  const store::ForecastSeriesRecord vision = Series("h100", "vision", "held");
  ASSERT_EQ(vision.history.size(), 72u);
  EXPECT_THAT(vision.history, Each(2000));
  ASSERT_EQ(vision.p50.size(), 24u * 7);
  EXPECT_FALSE(vision.model.empty());
  EXPECT_TRUE(vision.fit.count("alpha"));
  // A flat 2 devices is forecast as 2 devices.
  EXPECT_NEAR(static_cast<double>(vision.p50[0]), 2000, 1);
  const store::ForecastSeriesRecord total = Series("h100", "", "held");
  EXPECT_EQ(total.history[0], 2500);
  EXPECT_EQ(total.history[12], 3500);
  // Capacity: three devices, four from the third day, held flat ahead.
  const store::ForecastSeriesRecord capacity = Series("h100", "", "capacity");
  EXPECT_EQ(capacity.history[0], 3000);
  EXPECT_EQ(capacity.history[71], 4000);
  EXPECT_THAT(capacity.p50, Each(4000));
  EXPECT_EQ(capacity.model, "last_value");
  // Pending: half of the second-to-last hour and the whole last hour.
  const store::ForecastSeriesRecord pending = Series("h100", "speech", "pending");
  EXPECT_EQ(pending.history[69], 0);
  EXPECT_EQ(pending.history[70], 1000);
  EXPECT_EQ(pending.history[71], 2000);
  EXPECT_EQ(Series("h100", "", "pending").history[71], 2000);
  // The total's daily peak of 3.5 devices stays under four: no exhaustion of the p50 within a week.
  EXPECT_FALSE(total.exhaustion_p50.has_value());
  // t4 has no history and no devices, but a total all the same.
  EXPECT_THAT(Series("t4", "", "held").history, Each(0));
}

TEST_F(ForecastPassTest, DemandAboveCapacityHasAnExhaustionDay) {
  teams_.Apply(kForecastPolicy, kForecastStart);
  const absl::Time watermark = kForecastStart + absl::Hours(72);
  for (int h = 0; h < 72; ++h) Held("vision", kForecastStart + absl::Hours(h), 5000);
  for (int i = 0; i < 4; ++i) capacity_.AddDevice("c1", "H100", kForecastStart);
  ASSERT_THAT(pass_.Run(watermark), IsOk());
  const store::ForecastSeriesRecord total = Series("h100", "", "held");
  ASSERT_TRUE(total.exhaustion_p50.has_value());
  EXPECT_EQ(*total.exhaustion_p50, watermark);  // the first day of the forecast, a UTC midnight
  ASSERT_TRUE(total.exhaustion_p90.has_value());
  EXPECT_EQ(Series("h100", "", "pending").exhaustion_p50, std::nullopt);
}

TEST_F(ForecastPassTest, HoursBeforeTheFlavorWasInServiceAreNotObservations) {
  // The lookback reaches back 72 hours, the H100s came into service 24 hours
  // in: the model learns from the 48 hours since, not from 24 zeros before.
  teams_.Apply(kForecastPolicy, kForecastStart);
  const absl::Time watermark = kForecastStart + absl::Hours(72);
  const absl::Time in_service = kForecastStart + absl::Hours(24);
  for (int i = 0; i < 4; ++i) capacity_.AddDevice("c1", "H100", in_service);
  for (absl::Time h = in_service; h < watermark; h += absl::Hours(1)) Held("vision", h, 3000);
  ASSERT_THAT(pass_.Run(watermark), IsOk());
  const store::ForecastSeriesRecord vision = Series("h100", "vision", "held");
  ASSERT_EQ(vision.history.size(), 72u);  // stored whole, as read
  EXPECT_EQ(vision.fit.at("points_used"), 48);
  EXPECT_NEAR(static_cast<double>(vision.p50[0]), 3000, 1);
}

TEST_F(ForecastPassTest, RunsOncePerIntervalAndKeepsTheNewestRuns) {
  teams_.Apply(kForecastPolicy, kForecastStart);
  const absl::Time watermark = kForecastStart + absl::Hours(72);
  Held("vision", kForecastStart, 1000);
  auto first = pass_.Run(watermark);
  ASSERT_THAT(first, IsOk());
  ASSERT_TRUE(first->run_id.has_value());
  // Later the same UTC day: nothing.
  clock_.Advance(absl::Hours(20));
  auto same_day = pass_.Run(watermark);
  ASSERT_THAT(same_day, IsOk());
  EXPECT_FALSE(same_day->run_id.has_value());
  EXPECT_EQ(same_day->skipped, "done this interval");
  // The next UTC days: a run each, the oldest pruned past two.
  for (int day = 1; day <= 2; ++day) {
    clock_.Advance(absl::Hours(24));
    auto next = pass_.Run(watermark + absl::Hours(24 * day));
    ASSERT_THAT(next, IsOk());
    ASSERT_TRUE(next->run_id.has_value()) << next->skipped;
    EXPECT_EQ(next->pruned, day == 2 ? 1 : 0);
  }
  auto gone = forecasts_.Series(*first->run_id, {"h100", "vision", "held"});
  ASSERT_THAT(gone, IsOk());
  EXPECT_FALSE(gone->has_value());
}

TEST_F(ForecastPassTest, WithoutPolicyOrHistoryNothingIsStored) {
  auto no_policy = pass_.Run(kForecastStart + absl::Hours(72));
  ASSERT_THAT(no_policy, IsOk());
  EXPECT_EQ(no_policy->skipped, "no policy");
  teams_.Apply(kForecastPolicy, kForecastStart);
  auto no_history = pass_.Run(std::nullopt);
  ASSERT_THAT(no_history, IsOk());
  EXPECT_EQ(no_history->skipped, "no history yet");
  auto run = forecasts_.LatestRun();
  ASSERT_THAT(run, IsOk());
  EXPECT_FALSE(run->has_value());
}

TEST(ForecastPassOptionsTest, OutOfRangeOptionsNameTheirFlag) {
  ForecastPassOptions o;
  o.keep_runs = 1;
  EXPECT_THAT(ValidateForecastPassOptions(o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--forecast-keep-runs")));
  o = {};
  o.horizon_hours = 2161;
  EXPECT_THAT(ValidateForecastPassOptions(o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--forecast-horizon")));
  o = {};
  o.lookback = absl::Minutes(90);
  EXPECT_THAT(ValidateForecastPassOptions(o),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--forecast-lookback")));
  EXPECT_THAT(ValidateForecastPassOptions(ForecastPassOptions{}), IsOk());
}

}  // namespace
}  // namespace fleetcap::optimizer

#include "optimizer/whatif/engine_forecaster.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "optimizer/whatif/scenario_parser.h"
#include "optimizer/whatif/scenario_run.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::whatif {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::Each;
using ::testing::SizeIs;

TEST(EngineForecaster, ProjectsASteadySeriesFlatWithTheSimplestModelItsBacktestTies) {
  const std::vector<int64_t> four_weeks(4 * 168, 2500);
  auto p = EngineForecaster().Project(four_weeks, 48);
  ASSERT_TRUE(p.has_value());
  // Every candidate forecasts a constant exactly: the tie goes to the simplest.
  EXPECT_EQ(p->model, "seasonal_naive");
  EXPECT_THAT(p->p50_milli, SizeIs(48));
  EXPECT_THAT(p->p50_milli, Each(2500));
  EXPECT_THAT(p->p90_milli, Each(2500));
}

TEST(EngineForecaster, SaysWhichFallbackAShortSeriesGot) {
  auto p = EngineForecaster().Project({1000, 1000, 1000, 1000, 1000}, 3);
  ASSERT_TRUE(p.has_value());
  EXPECT_NE(p->model, "holt_winters_weekly");
  EXPECT_NE(p->model, kRecentAverageModel);
}

TEST(EngineForecaster, GivesNoProjectionOfAnEmptySeriesSoTheRecentAverageIsUsed) {
  EXPECT_FALSE(EngineForecaster().Project({}, 3).has_value());
  EngineForecaster engine;
  EXPECT_EQ(ProjectHeld(&engine, {}, 3).model, kRecentAverageModel);
}

TEST(EngineForecaster, ADailyCycleReachesCapacityAtItsPeakHours) {
  // 28 days of a daily cycle peaking at 9 devices in one hour of each day, on 10 devices: the
  // scenario that removes two finds the peak over capacity on the first day after the removal.
  PlanningState s;
  s.now = absl::FromCivil(absl::CivilDay(2026, 12, 15), absl::UTCTimeZone());
  s.history_end = s.now;
  s.history_hours = 28 * 24;
  s.policy_version = 1;
  s.policy_yaml = R"(version: 1
teams:
  - name: team-a
flavors:
  - name: h100
    model: H100
    capacity: 10
prices:
  - model: H100
    from: 2026-01-01T00:00:00Z
    per_device_hour: 1
)";
  for (int64_t h = 0; h < s.history_hours; ++h) {
    const int64_t devices = h % 24 == 14 ? 9 : 2;
    s.held.push_back({"team-a", "c1", "H100", s.history_end - absl::Hours(s.history_hours - h), devices * 1000 * 3600});
  }
  ParsedScenario parsed =
      ParseScenario("version: 1\ncapacity:\n  - flavor: h100\n    remove: 2\n    from: 2026-12-20T00:00:00Z\n");
  ASSERT_TRUE(parsed.ok());
  EngineForecaster engine;
  auto c = RunScenario(s, parsed.document, &engine);
  ASSERT_THAT(c.status(), IsOk());
  EXPECT_FALSE(c->baseline.flavors[0].exhausted_p50.has_value());
  EXPECT_EQ(c->scenario.flavors[0].exhausted_p50, absl::FromCivil(absl::CivilDay(2026, 12, 20), absl::UTCTimeZone()));
  EXPECT_NE(c->scenario.flavors[0].model, kRecentAverageModel);
}

}  // namespace
}  // namespace fleetcap::whatif

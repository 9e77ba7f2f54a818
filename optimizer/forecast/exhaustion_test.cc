#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "optimizer/forecast/forecast.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::forecast {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kDayOne = absl::FromCivil(absl::CivilDay(2026, 3, 1), absl::UTCTimeZone());

// A demand forecast rising one device an hour from 10 (p50) with a p90 five above.
Forecast Rising(int hours) {
  Forecast f;
  f.start = kDayOne;
  for (int h = 0; h < hours; ++h) {
    f.p50.push_back(10.0 + h);
    f.p90.push_back(15.0 + h);
  }
  return f;
}

TEST(FindExhaustionTest, ConstantCapacityRunsOutOnTheDayTheForecastPassesIt) {
  // p50 passes 40 at hour 31 (day 2); p90 passes it at hour 26 (day 2) too;
  // at capacity 30, p90 exceeds it at hour 16 (day 1) and p50 at hour 21.
  auto e = FindExhaustion(Rising(72), CapacitySchedule{40, {}});
  ASSERT_THAT(e, IsOk());
  EXPECT_EQ(e->p50_day, absl::CivilDay(2026, 3, 2));
  EXPECT_EQ(e->p90_day, absl::CivilDay(2026, 3, 2));

  e = FindExhaustion(Rising(72), CapacitySchedule{36, {}});
  ASSERT_THAT(e, IsOk());
  EXPECT_EQ(e->p50_day, absl::CivilDay(2026, 3, 2));  // 10 + 27 > 36 at hour 27
  EXPECT_EQ(e->p90_day, absl::CivilDay(2026, 3, 1));  // 15 + 22 > 36 at hour 22
}

TEST(FindExhaustionTest, EqualToCapacityIsNotExhausted) {
  Forecast flat;
  flat.start = kDayOne;
  flat.p50.assign(48, 8.0);
  flat.p90.assign(48, 8.0);
  auto e = FindExhaustion(flat, CapacitySchedule{8, {}});
  ASSERT_THAT(e, IsOk());
  EXPECT_EQ(e->p50_day, std::nullopt);
  EXPECT_EQ(e->p90_day, std::nullopt);
}

TEST(FindExhaustionTest, CapacityStepsMoveTheDay) {
  // Capacity 100 until day 3, when half is removed: the p50 (about 58 then)
  // exceeds 50 on day 3; the p90 too.
  CapacitySchedule capacity{100, {{kDayOne + absl::Hours(48), 50}}};
  auto e = FindExhaustion(Rising(96), capacity);
  ASSERT_THAT(e, IsOk());
  EXPECT_EQ(e->p50_day, absl::CivilDay(2026, 3, 3));
  EXPECT_EQ(e->p90_day, absl::CivilDay(2026, 3, 3));

  // Added capacity before the forecast reaches it: never within 96 hours.
  capacity = CapacitySchedule{60, {{kDayOne + absl::Hours(40), 200}}};
  e = FindExhaustion(Rising(96), capacity);
  ASSERT_THAT(e, IsOk());
  EXPECT_EQ(e->p50_day, std::nullopt);
  EXPECT_EQ(e->p90_day, std::nullopt);
}

TEST(FindExhaustionTest, AStepInsideAnHourCountsFromTheNextHour) {
  Forecast flat;
  flat.start = kDayOne;
  flat.p50.assign(48, 10.0);
  flat.p90.assign(48, 10.0);
  // Down to 5 at 23:30 on day one: hour 23 keeps 20, hour 24 (day two) has 5.
  auto e = FindExhaustion(flat, CapacitySchedule{20, {{kDayOne + absl::Minutes(23 * 60 + 30), 5}}});
  ASSERT_THAT(e, IsOk());
  EXPECT_EQ(e->p50_day, absl::CivilDay(2026, 3, 2));
}

TEST(FindExhaustionTest, BadCapacityIsRefusedNamingTheField) {
  EXPECT_THAT(FindExhaustion(Rising(4), CapacitySchedule{-1, {}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("capacity.initial")));
  EXPECT_THAT(FindExhaustion(Rising(4), CapacitySchedule{1, {{kDayOne, std::nan("")}}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("capacity.steps[0].capacity")));
  EXPECT_THAT(FindExhaustion(Rising(4), CapacitySchedule{1, {{kDayOne, 1}, {kDayOne, 2}}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("capacity.steps[1].from")));
}

TEST(FindExhaustionTest, WorksOnAnEngineForecast) {
  HourlySeries history{kDayOne - absl::Hours(24 * 21), {}};
  for (int t = 0; t < 24 * 21; ++t) history.values.push_back(10.0 + 0.1 * t);  // +2.4 a day
  ForecastOptions options;
  options.horizon_hours = 24 * 30;
  auto f = ForecastHourly(history, options);
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->start, kDayOne);
  // The history ends at 10 + 0.1 * 503 = 60.3; 90 is passed 298 hours on,
  // on day 13 (2026-03-13).
  auto e = FindExhaustion(*f, CapacitySchedule{90, {}});
  ASSERT_THAT(e, IsOk());
  ASSERT_TRUE(e->p50_day.has_value());
  EXPECT_EQ(*e->p50_day, absl::CivilDay(2026, 3, 13));
  ASSERT_TRUE(e->p90_day.has_value());
  EXPECT_LE(*e->p90_day, *e->p50_day);
}

}  // namespace
}  // namespace fleetcap::forecast

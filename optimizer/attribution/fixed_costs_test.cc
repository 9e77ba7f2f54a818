#include "optimizer/attribution/fixed_costs.h"

#include <gtest/gtest.h>

namespace fleetcap::attribution {
namespace {

int64_t MonthSum(int64_t amount, absl::CivilMonth month) {
  const absl::TimeZone utc = absl::UTCTimeZone();
  int64_t sum = 0;
  for (absl::Time h = absl::FromCivil(month, utc); h < absl::FromCivil(month + 1, utc); h += absl::Hours(1)) {
    const int64_t part = MonthlyCostForHour(amount, h);
    EXPECT_GE(part, amount / 744 - 1);
    sum += part;
  }
  return sum;
}

TEST(MonthlyCostForHour, TheHoursOfEveryMonthAddUpToTheAmountExactly) {
  for (int64_t amount : {int64_t{0}, int64_t{1}, int64_t{100000000}, int64_t{123456789}, int64_t{1} << 50}) {
    EXPECT_EQ(MonthSum(amount, absl::CivilMonth(2026, 1)), amount) << amount;  // 744 hours
    EXPECT_EQ(MonthSum(amount, absl::CivilMonth(2026, 2)), amount) << amount;  // 672 hours
    EXPECT_EQ(MonthSum(amount, absl::CivilMonth(2028, 2)), amount) << amount;  // 696 hours, leap year
  }
}

TEST(MonthlyCostForHour, AnHourGetsItsExactPart) {
  // January 2026, hour 106: floor(107e8/744) - floor(106e8/744).
  EXPECT_EQ(MonthlyCostForHour(100000000, absl::FromUnixSeconds(1767225600) + absl::Hours(106)), 134409);
}

}  // namespace
}  // namespace fleetcap::attribution

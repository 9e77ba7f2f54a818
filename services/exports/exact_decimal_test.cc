#include "services/exports/exact_decimal.h"

#include <gtest/gtest.h>

#include <limits>

namespace fleetcap::exports {
namespace {

TEST(Money, KeepsEveryMicroUnitAndAtLeastTwoDecimals) {
  EXPECT_EQ(Money(0), "0.00");
  EXPECT_EQ(Money(14000000), "14.00");
  EXPECT_EQ(Money(1500000), "1.50");
  EXPECT_EQ(Money(1166667), "1.166667");
  EXPECT_EQ(Money(1), "0.000001");
  EXPECT_EQ(Money(120), "0.00012");
  EXPECT_EQ(Money(-20), "-0.00002");
  EXPECT_EQ(Money(-3500000), "-3.50");
}

TEST(Money, ExtremesDoNotOverflow) {
  EXPECT_EQ(Money(std::numeric_limits<int64_t>::max()), "9223372036854.775807");
  EXPECT_EQ(Money(std::numeric_limits<int64_t>::min()), "-9223372036854.775808");
}

TEST(Hundredths, RoundsHalfAwayFromZeroToTwoDecimals) {
  EXPECT_EQ(Hundredths(0), "0.00");
  EXPECT_EQ(Hundredths(14000000), "14.00");
  EXPECT_EQ(Hundredths(1166667), "1.17");
  EXPECT_EQ(Hundredths(4666667), "4.67");
  EXPECT_EQ(Hundredths(1004999), "1.00");
  EXPECT_EQ(Hundredths(1005000), "1.01");
  EXPECT_EQ(Hundredths(995000), "1.00");
  EXPECT_EQ(Hundredths(-5000), "-0.01");
  EXPECT_EQ(Hundredths(-4999), "0.00");  // no "-0.00"
  EXPECT_EQ(Hundredths(-3500000), "-3.50");
  EXPECT_EQ(Hundredths(std::numeric_limits<int64_t>::max()), "9223372036854.78");
  EXPECT_EQ(Hundredths(std::numeric_limits<int64_t>::min()), "-9223372036854.78");
  EXPECT_FALSE(FinerThanHundredths(14000000));
  EXPECT_FALSE(FinerThanHundredths(-10000));
  EXPECT_TRUE(FinerThanHundredths(1166667));
  EXPECT_TRUE(FinerThanHundredths(-1));
  EXPECT_TRUE(FinerThanHundredths(std::numeric_limits<int64_t>::min()));
}

TEST(FixedPoint, PadsToTheDecimalsAskedFor) {
  EXPECT_EQ(FixedPoint(1500000, 6), "1.500000");
  EXPECT_EQ(FixedPoint(1500000, 0), "1");
  EXPECT_EQ(FixedPoint(25, 5), "0.00002");
  EXPECT_EQ(DecimalsNeeded(25), 6);
  EXPECT_EQ(DecimalsNeeded(1500000), 2);
  EXPECT_EQ(DecimalsNeeded(1500000, 0), 1);
  EXPECT_EQ(DecimalsNeeded(2000000, 0), 0);
}

TEST(DeviceHours, ConvertsMilliDeviceSecondsRoundingHalfAwayFromZero) {
  EXPECT_EQ(DeviceHours(3600000), "1.00");
  EXPECT_EQ(DeviceHours(1800000), "0.50");
  // A 30-second pod on a 3/7 MIG slice: 428 x 30 = 12840 -> 0.0035666.. h.
  EXPECT_EQ(DeviceHours(12840), "0.003567");
  // 9 milli-device-seconds are exactly 2.5 millionths of a device-hour.
  EXPECT_EQ(DeviceHourMillionths(9), 3);
  EXPECT_EQ(DeviceHourMillionths(-9), -3);
  EXPECT_EQ(DeviceHourMillionths(1), 0);
  EXPECT_EQ(DeviceHourMillionths(2), 1);
  EXPECT_EQ(DeviceHourMillionths(-2), -1);
  EXPECT_EQ(DeviceHours(0), "0.00");
  EXPECT_EQ(DeviceHourMillionths(std::numeric_limits<int64_t>::max()), 2562047788015215502);
}

}  // namespace
}  // namespace fleetcap::exports

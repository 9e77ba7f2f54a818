#include "optimizer/allocation/rounding.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::allocation {
namespace {

using ::testing::ElementsAre;

const std::string kA = "a", kB = "b", kC = "c";

TEST(RoundToTotal, EqualRemaindersGoByName) {
  const long double third = 1000.0L / 3;
  EXPECT_THAT(RoundToTotal({{third, 0, 1000, &kC}, {third, 0, 1000, &kA}, {third, 0, 1000, &kB}}, 1000),
              ElementsAre(333, 334, 333));
}

TEST(RoundToTotal, LargestRemainderFirst) {
  EXPECT_THAT(RoundToTotal({{10.2L, 0, 100, &kA}, {20.7L, 0, 100, &kB}, {9.1L, 0, 100, &kC}}, 40),
              ElementsAre(10, 21, 9));
}

TEST(RoundToTotal, NeverAboveUpper) {
  // b's remainder is largest but it is at its bound.
  EXPECT_THAT(RoundToTotal({{10.4L, 0, 100, &kA}, {4.9999999999L, 0, 5, &kB}, {4.6L, 0, 100, &kC}}, 20),
              ElementsAre(10, 5, 5));
}

TEST(RoundToTotal, LastDigitErrorsCountAsTheWholeNumber) {
  EXPECT_THAT(RoundToTotal({{2.99999999999L, 0, 10, &kA}, {7.00000000001L, 0, 10, &kB}}, 10), ElementsAre(3, 7));
}

}  // namespace
}  // namespace fleetcap::allocation

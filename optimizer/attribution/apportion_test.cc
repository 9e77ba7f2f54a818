#include "optimizer/attribution/apportion.h"

#include <gtest/gtest.h>

namespace fleetcap::attribution {
namespace {

std::vector<int64_t> Split(Int128 total, std::vector<Int128> weights) {
  std::vector<Int128> parts;
  Apportion(total, weights, &parts);
  return std::vector<int64_t>(parts.begin(), parts.end());
}

TEST(Apportion, TheLeftoverUnitsGoToTheLargestRemainders) {
  // 10 x 1/6, 2/6, 3/6 = 1.67, 3.33, 5: floors 1 + 3 + 5 leave 1, to the .67.
  EXPECT_EQ(Split(10, {1, 2, 3}), (std::vector<int64_t>{2, 3, 5}));
}

TEST(Apportion, TiesGoToTheLargerWeightThenTheLowerIndex) {
  // 3 x 1/3 each: one unit each, no leftover.
  EXPECT_EQ(Split(3, {1, 1, 1}), (std::vector<int64_t>{1, 1, 1}));
  // 10 over 1 : 1 : 1 -> 3.33 each: the leftover unit to the first.
  EXPECT_EQ(Split(10, {5, 5, 5}), (std::vector<int64_t>{4, 3, 3}));
  // 1 over weights 2 and 2 (0.5 each, equal remainders and weights): the first.
  EXPECT_EQ(Split(1, {2, 2}), (std::vector<int64_t>{1, 0}));
  // 5 over 1 : 3 : 1 : 3 = .625, 1.875, .625, 1.875: floors 0 + 1 + 0 + 1 leave 3:
  // .875 and .875 (the larger weights), then .625 at the lower index.
  EXPECT_EQ(Split(5, {1, 3, 1, 3}), (std::vector<int64_t>{1, 2, 0, 2}));
}

TEST(Apportion, AllZeroWeightsSplitEvenly) { EXPECT_EQ(Split(7, {0, 0, 0}), (std::vector<int64_t>{3, 2, 2})); }

TEST(Apportion, HugeWeightsStillSplitTheTotalExactly) {
  const Int128 big = Int128{1} << 100;
  std::vector<Int128> parts;
  Apportion(1000000007, {big, big * 2, 3}, &parts);
  EXPECT_EQ(parts[0] + parts[1] + parts[2], 1000000007);
  EXPECT_EQ(static_cast<int64_t>(parts[0]), 333333336);
  EXPECT_EQ(static_cast<int64_t>(parts[1]), 666666671);
  EXPECT_EQ(static_cast<int64_t>(parts[2]), 0);
}

TEST(Apportion, AHugeTotalOverHugeWeightsDoesNotOverflow) {
  const Int128 total = (Int128{1} << 90) + 12345;
  std::vector<Int128> parts;
  Apportion(total, {(Int128{1} << 61) + 1, (Int128{1} << 61) - 1}, &parts);
  EXPECT_EQ(parts[0] + parts[1], total);
  EXPECT_GE(parts[0], parts[1]);
}

}  // namespace
}  // namespace fleetcap::attribution

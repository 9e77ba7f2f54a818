#include "optimizer/insights/percentile.h"

#include <gtest/gtest.h>

namespace fleetcap::insights {
namespace {

TEST(Percentile, InterpolatesBetweenTheNearestRanks) {
  // 17 values: h = 16 x 0.95 = 15.2, between the 15th (5) and 16th (6).
  std::vector<double> v(16, 5.0);
  v.push_back(6);
  EXPECT_DOUBLE_EQ(*Percentile(v, 95), 5.2);
  EXPECT_DOUBLE_EQ(*Percentile({3, 1, 2}, 50), 2);
  EXPECT_DOUBLE_EQ(*Percentile({1, 2}, 50), 1.5);
  EXPECT_DOUBLE_EQ(*Percentile({4, 9}, 100), 9);
  EXPECT_DOUBLE_EQ(*Percentile({4, 9}, 0), 4);
}

TEST(Percentile, AnExactRankIsThatValueAndNoneOfNothing) {
  // 21 values: h = 20 x 0.95 = 19 exactly, never 18.999... by a rounding.
  std::vector<double> v;
  for (int i = 0; i <= 20; ++i) v.push_back(i);
  EXPECT_DOUBLE_EQ(*Percentile(v, 95), 19);
  EXPECT_DOUBLE_EQ(*Percentile({7}, 99), 7);
  EXPECT_FALSE(Percentile({}, 95).has_value());
}

}  // namespace
}  // namespace fleetcap::insights

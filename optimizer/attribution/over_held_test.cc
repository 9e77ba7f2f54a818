#include "optimizer/attribution/over_held.h"

#include <gtest/gtest.h>

namespace fleetcap::attribution {
namespace {

TEST(FindOverHeld, HoldsThatFitTheDeviceAreNotReported) {
  EXPECT_TRUE(FindOverHeld({{0, 100, 500, 0}, {0, 100, 500, 1}, {100, 200, 1000, 2}}).empty());
}

TEST(FindOverHeld, ReportsEachSpanOverTheDeviceWithTheHoldsInIt) {
  auto spans = FindOverHeld({{0, 100, 600, 7}, {50, 150, 600, 3}, {120, 130, 1000, 9}});
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].from, 50);
  EXPECT_EQ(spans[0].to, 100);
  EXPECT_EQ(spans[0].milli, 1200);
  EXPECT_EQ(spans[0].holds, (std::vector<uint32_t>{3, 7}));
  EXPECT_EQ(spans[1].from, 120);
  EXPECT_EQ(spans[1].to, 130);
  EXPECT_EQ(spans[1].milli, 1600);
  EXPECT_EQ(spans[1].holds, (std::vector<uint32_t>{3, 9}));
}

}  // namespace
}  // namespace fleetcap::attribution

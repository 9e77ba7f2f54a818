#include "optimizer/allocation/water_filling.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace fleetcap::allocation {
namespace {

using ::testing::DoubleNear;
using ::testing::ElementsAre;

std::vector<double> AsDouble(const std::vector<long double>& v) { return {v.begin(), v.end()}; }

TEST(SplitByWeight, EqualWeightsSplitEvenly) {
  EXPECT_THAT(AsDouble(SplitByWeight(90, {1000, 1000, 1000}, {1, 1, 1})), ElementsAre(30, 30, 30));
}

TEST(SplitByWeight, WeightsScaleShares) {
  EXPECT_THAT(AsDouble(SplitByWeight(90, {1000, 1000}, {1, 2})), ElementsAre(30, 60));
}

TEST(SplitByWeight, CappedClaimantLeavesTheRestToOthers) {
  EXPECT_THAT(AsDouble(SplitByWeight(90, {10, 1000, 1000}, {1, 1, 1})), ElementsAre(10, 40, 40));
  // The cap binds per weight: 30/3 = 10 fills before 100/1.
  EXPECT_THAT(AsDouble(SplitByWeight(100, {30, 1000}, {3, 1})), ElementsAre(30, 70));
}

TEST(SplitByWeight, AmountAboveAllCapsGivesEveryCapExactly) {
  EXPECT_THAT(AsDouble(SplitByWeight(1000, {10, 20, 0}, {1, 5, 2})), ElementsAre(10, 20, 0));
}

TEST(SplitByWeight, NothingToSplitGivesNothing) {
  EXPECT_THAT(AsDouble(SplitByWeight(0, {10, 20}, {1, 1})), ElementsAre(0, 0));
}

TEST(SplitByWeight, FractionalSharesSumToTheAmount) {
  std::vector<long double> s = SplitByWeight(1000, {5000, 5000, 5000}, {1, 1, 1});
  EXPECT_THAT(AsDouble(s),
              ElementsAre(DoubleNear(333.3333333, 1e-6), DoubleNear(333.3333333, 1e-6), DoubleNear(333.3333333, 1e-6)));
  EXPECT_NEAR(static_cast<double>(s[0] + s[1] + s[2]), 1000.0, 1e-9);
}

// labs: a (weight 1) holds a1 and a2; b (weight 1) holds b1.
OrgTree Labs() { return *OrgTree::Build({{"a", "", 1}, {"b", "", 1}, {"a1", "a", 1}, {"a2", "a", 1}, {"b1", "b", 1}}); }

std::vector<int64_t> ByName(const OrgTree& tree, const std::map<std::string, int64_t>& values, int64_t fallback) {
  std::vector<int64_t> out(tree.nodes().size(), fallback);
  for (const auto& [name, v] : values) out[*tree.Find(name)] = v;
  return out;
}

TEST(HierarchicalWaterFill, SplitsEachLevelBetweenSubtrees) {
  const OrgTree tree = Labs();
  const auto got =
      HierarchicalWaterFill(tree, 90, ByName(tree, {{"a1", 100}, {"a2", 100}, {"b1", 100}}, 0), ByName(tree, {}, 1));
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("a")]), 45);
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("a1")]), 22.5);
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("a2")]), 22.5);
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("b1")]), 45);
}

TEST(HierarchicalWaterFill, SubtreeIsCappedAtItsLeavesUnmetDemand) {
  const OrgTree tree = Labs();
  const auto got = HierarchicalWaterFill(tree, 90, ByName(tree, {{"a1", 100}, {"a2", 100}, {"b1", 10}}, 0),
                                         ByName(tree, {{"a", 3}}, 1));
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("b1")]), 10);
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("a1")]), 40);
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("a2")]), 40);
}

TEST(HierarchicalWaterFill, WeightsApplyAmongSiblingsOnly) {
  const OrgTree tree = Labs();
  // a2's weight 3 matters inside a, not against b.
  const auto got = HierarchicalWaterFill(tree, 80, ByName(tree, {{"a1", 100}, {"a2", 100}, {"b1", 100}}, 0),
                                         ByName(tree, {{"a2", 3}}, 1));
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("b1")]), 40);
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("a1")]), 10);
  EXPECT_DOUBLE_EQ(static_cast<double>(got[*tree.Find("a2")]), 30);
}

}  // namespace
}  // namespace fleetcap::allocation

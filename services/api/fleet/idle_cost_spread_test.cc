#include "services/api/fleet/idle_cost_spread.h"

#include <gtest/gtest.h>

namespace fleetcap::api {
namespace {

v1::AssetRow IdleRow(const std::string& model, const std::string& cluster, const std::string& node, int64_t idle) {
  v1::AssetRow row;
  row.set_model(model);
  row.set_cluster(cluster);
  row.set_node(node);
  row.set_idle_milli_seconds(idle);
  return row;
}

// 10 micro-units over idle 1:1:1 is 4, 3, 3 (one unit to the first of the
// equal remainders), adding up to the 10; another model's cost is its own.
TEST(IdleCostSpreadTest, ByIdleTimeByLargestRemainderAddingUpToTheMicroUnit) {
  std::vector<v1::AssetRow> rows = {IdleRow("A100", "c1", "n1", 100), IdleRow("A100", "c1", "n2", 100),
                                    IdleRow("A100", "c1", "n3", 100), IdleRow("H100", "c1", "n4", 7),
                                    IdleRow("A100", "c2", "m1", 5)};
  SpreadIdleCost({{{"A100", "c1"}, 10}, {{"H100", "c1"}, 1'000'001}, {{"A100", "c2"}, 0}}, rows);
  EXPECT_EQ(rows[0].idle_cost_micro(), 4);
  EXPECT_EQ(rows[1].idle_cost_micro(), 3);
  EXPECT_EQ(rows[2].idle_cost_micro(), 3);
  EXPECT_EQ(rows[3].idle_cost_micro(), 1'000'001);
  EXPECT_TRUE(rows[4].has_idle_cost_micro());
  EXPECT_EQ(rows[4].idle_cost_micro(), 0);
}

TEST(IdleCostSpreadTest, InProportionToIdleTime) {
  std::vector<v1::AssetRow> rows = {IdleRow("A100", "c1", "n1", 3'600'000), IdleRow("A100", "c1", "n2", 1'200'000),
                                    IdleRow("A100", "c1", "n3", 0)};
  SpreadIdleCost({{{"A100", "c1"}, 7'000'000}}, rows);
  EXPECT_EQ(rows[0].idle_cost_micro(), 5'250'000);
  EXPECT_EQ(rows[1].idle_cost_micro(), 1'750'000);
  EXPECT_EQ(rows[2].idle_cost_micro(), 0);
}

// A model and cluster the chargeback has no line for is unknown, not free;
// a credit is spread as a cost is.
TEST(IdleCostSpreadTest, NoCostIsUnknownAndACreditIsSpreadToo) {
  std::vector<v1::AssetRow> rows = {IdleRow("T4", "c1", "n1", 10), IdleRow("A100", "c1", "n1", 1),
                                    IdleRow("A100", "c1", "n2", 2)};
  SpreadIdleCost({{{"A100", "c1"}, -3}}, rows);
  EXPECT_FALSE(rows[0].has_idle_cost_micro());
  EXPECT_EQ(rows[1].idle_cost_micro(), -1);
  EXPECT_EQ(rows[2].idle_cost_micro(), -2);
}

}  // namespace
}  // namespace fleetcap::api

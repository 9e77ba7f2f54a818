#include "store/memory_live_inventory_repository.h"

#include <gtest/gtest.h>

#include "store/live_inventory_contract.h"

namespace fleetcap::store {
namespace {

class MemoryLiveInventoryTest : public ::testing::Test {
 protected:
  LiveInventoryRepository& repo() { return repo_; }
  MemoryLiveInventoryRepository repo_;
};

FLEETCAP_LIVE_INVENTORY_CONTRACT_TESTS(MemoryLiveInventoryTest)

TEST_F(MemoryLiveInventoryTest, InjectedFailuresChangeNothing) {
  repo_.FailNextApplies(1);
  EXPECT_EQ(repo_.Apply(contract::FirstSight()).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(repo_.State("live"), nullptr);
  EXPECT_TRUE(repo_.Apply(contract::FirstSight()).ok());
  EXPECT_EQ(repo_.State("live")->holds.size(), 2u);
  EXPECT_EQ(repo_.applies(), 1);
}

TEST_F(MemoryLiveInventoryTest, NamespaceLabelsAreReplacedWhole) {
  InventoryChanges c;
  c.cluster = "live";
  c.namespaces = {{"ml", {{"fleetcap.io/team", "vision"}}, {{"owner", "speech"}}}};
  ASSERT_TRUE(repo_.Apply(c).ok());
  c.namespaces = {{"ml", {}, {{"owner", "shop"}}}};
  ASSERT_TRUE(repo_.Apply(c).ok());
  const auto& ns = repo_.State("live")->namespaces.at("ml");
  EXPECT_TRUE(ns.labels.empty());
  EXPECT_EQ(ns.annotations, (std::map<std::string, std::string>{{"owner", "shop"}}));
  c.namespaces = {{"", {}, {}}};
  EXPECT_EQ(repo_.Apply(c).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::store

#include "store/memory_live_inventory_repository.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "store/live_inventory_contract.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::store {
namespace {

using ::fleetcap::testing::IsOk;

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
  EXPECT_THAT(repo_.Apply(contract::FirstSight()), IsOk());
  EXPECT_EQ(repo_.State("live")->holds.size(), 2u);
  EXPECT_EQ(repo_.applies(), 1);
}

TEST_F(MemoryLiveInventoryTest, NamespaceLabelsAreReplacedWhole) {
  InventoryChanges c;
  c.cluster = "live";
  c.namespaces = {{"ml", {{"fleetcap.io/team", "vision"}}, {{"owner", "speech"}}}};
  ASSERT_THAT(repo_.Apply(c), IsOk());
  c.namespaces = {{"ml", {}, {{"owner", "shop"}}}};
  ASSERT_THAT(repo_.Apply(c), IsOk());
  const auto& ns = repo_.State("live")->namespaces.at("ml");
  EXPECT_TRUE(ns.labels.empty());
  EXPECT_EQ(ns.annotations, (std::map<std::string, std::string>{{"owner", "shop"}}));
  c.namespaces = {{"", {}, {}}};
  EXPECT_EQ(repo_.Apply(c).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::store

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

TEST_F(MemoryLiveInventoryTest, NamespaceTeamsPreferTheClustersOwnRows) {
  repo_.SetNamespaceTeam("*", "ml", "everywhere");
  repo_.SetNamespaceTeam("*", "web", "shop");
  repo_.SetNamespaceTeam("live", "ml", "vision");
  repo_.SetNamespaceTeam("other", "web", "nope");
  auto teams = repo_.NamespaceTeams("live");
  ASSERT_TRUE(teams.ok());
  EXPECT_EQ(*teams, (std::map<std::string, std::string>{{"ml", "vision"}, {"web", "shop"}}));
}

}  // namespace
}  // namespace fleetcap::store

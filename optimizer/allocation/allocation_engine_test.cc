#include "optimizer/allocation/allocation_engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "optimizer/allocation/bound_by.h"

namespace fleetcap::allocation {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t k = 1000;  // one device, in milli-devices

const TeamAllocation& Team(const FlavorAllocation& a, const std::string& name) {
  for (const auto& t : a.teams) {
    if (t.input.team == name) return t;
  }
  ADD_FAILURE() << "no team " << name;
  return a.teams.front();
}

TeamDemand Demand(const std::string& team, int64_t d, int64_t g = 0, std::optional<int64_t> b = std::nullopt,
                  std::optional<int64_t> l = std::nullopt, int64_t w = 1) {
  TeamDemand t;
  t.team = team;
  t.demand_milli = d;
  t.guarantee_milli = g;
  t.borrowing_limit_milli = b;
  t.lending_limit_milli = l;
  t.weight = w;
  return t;
}

FlavorAllocation Solve(const std::vector<OrgNode>& tree, int64_t capacity, const std::vector<TeamDemand>& teams) {
  auto org = OrgTree::Build(tree);
  EXPECT_TRUE(org.ok()) << org.status();
  auto a = AllocateFlavor(*org, {"gpu", capacity, teams});
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *a : FlavorAllocation{};
}

const std::vector<OrgNode> kFlat = {{"a", "", 1}, {"b", "", 1}, {"c", "", 1}};

TEST(AllocateFlavor, StepOneQuantities) {
  // d 30, g 10, b 5: e = 15, f = 10. d 2, g 10, l 3: e = 2, f = 2, h = (10 - 3) - 2 = 5.
  auto a =
      Solve(kFlat, 100 * k,
            {Demand("a", 30 * k, 10 * k, 5 * k, std::nullopt, 1), Demand("b", 2 * k, 10 * k, std::nullopt, 3 * k, 1)});
  EXPECT_EQ(Team(a, "a").effective_demand_milli, 15 * k);
  EXPECT_EQ(Team(a, "a").floor_milli, 10 * k);
  EXPECT_EQ(Team(a, "a").withheld_milli, 0);
  EXPECT_EQ(Team(a, "b").floor_milli, 2 * k);
  EXPECT_EQ(Team(a, "b").withheld_milli, 5 * k);
  EXPECT_EQ(a.pool_milli, 100 * k - 12 * k - 5 * k);
}

TEST(AllocateFlavor, EqualWeightsShareThePoolEvenlyAndRoundByName) {
  auto a = Solve(kFlat, 10 * k, {Demand("c", 100 * k), Demand("a", 100 * k), Demand("b", 100 * k)});
  // 10000 / 3 = 3333.33...: the extra milli-device goes to the first name.
  EXPECT_EQ(Team(a, "a").recommended_milli, 3334);
  EXPECT_EQ(Team(a, "b").recommended_milli, 3333);
  EXPECT_EQ(Team(a, "c").recommended_milli, 3333);
  EXPECT_EQ(Team(a, "a").bound_by, kBoundByFairShare);
}

TEST(AllocateFlavor, DemandWithinGuarantee) {
  auto a = Solve(kFlat, 10 * k, {Demand("a", 3 * k, 4 * k), Demand("b", 20 * k)});
  EXPECT_EQ(Team(a, "a").recommended_milli, 3 * k);
  EXPECT_EQ(Team(a, "a").bound_by, kBoundByDemand);
  EXPECT_EQ(Explanation(a, Team(a, "a")), "demand 3 within guarantee 4");
  EXPECT_EQ(Team(a, "b").recommended_milli, 7 * k);
}

TEST(AllocateFlavor, BorrowingLimitCapsTheTeam) {
  auto a = Solve(kFlat, 20 * k, {Demand("a", 30 * k, 4 * k, 2 * k), Demand("b", 30 * k)});
  EXPECT_EQ(Team(a, "a").recommended_milli, 6 * k);
  EXPECT_EQ(Team(a, "a").bound_by, kBoundByBorrowingLimit);
  EXPECT_EQ(Explanation(a, Team(a, "a")), "demand 30 capped at guarantee 4 + borrowing limit 2");
  EXPECT_EQ(Team(a, "b").recommended_milli, 14 * k);
}

TEST(AllocateFlavor, LendingLimitWithholdsIdleGuarantee) {
  // a uses 1 of its 8 and may lend only 2: 5 stay unlent, so b gets 20 - 1 - 5.
  auto a = Solve(kFlat, 20 * k, {Demand("a", 1 * k, 8 * k, std::nullopt, 2 * k), Demand("b", 30 * k)});
  EXPECT_EQ(Team(a, "a").recommended_milli, 1 * k);
  EXPECT_EQ(Team(a, "a").withheld_milli, 5 * k);
  EXPECT_THAT(Explanation(a, Team(a, "a")), HasSubstr("withholds 5 of its guarantee (lending limit 2)"));
  EXPECT_EQ(Team(a, "b").recommended_milli, 14 * k);
  EXPECT_EQ(Team(a, "b").bound_by, kBoundByLendingLimit);
}

TEST(AllocateFlavor, GuaranteesTakingTheWholeCapacityLeaveNothingToBorrow) {
  auto a = Solve(kFlat, 10 * k, {Demand("a", 20 * k, 6 * k), Demand("b", 20 * k, 4 * k)});
  EXPECT_EQ(Team(a, "a").recommended_milli, 6 * k);
  EXPECT_EQ(Team(a, "a").bound_by, kBoundByGuarantee);
  EXPECT_EQ(Team(a, "b").recommended_milli, 4 * k);
}

// Capacity below the guarantees in use (a node pool lost): the floors are
// shared by weighted max-min, nobody borrows, and the sum stays within C.
TEST(AllocateFlavor, OversubscribedGuaranteesShareTheCapacityByWeight) {
  auto a = Solve(kFlat, 9 * k,
                 {Demand("a", 10 * k, 10 * k, std::nullopt, std::nullopt, 2), Demand("b", 10 * k, 10 * k),
                  Demand("c", 1 * k, 1 * k)});
  ASSERT_TRUE(a.oversubscribed);
  EXPECT_EQ(a.pool_milli, 0);
  EXPECT_EQ(Team(a, "c").recommended_milli, 1 * k);  // its whole (small) floor
  EXPECT_EQ(Team(a, "c").bound_by, kBoundByDemand);
  EXPECT_EQ(Team(a, "a").recommended_milli, 5333);  // 8 split 2:1
  EXPECT_EQ(Team(a, "b").recommended_milli, 2667);
  EXPECT_EQ(Team(a, "a").bound_by, kBoundByFairShare);
  EXPECT_THAT(Explanation(a, Team(a, "a")), HasSubstr("guarantees on gpu need 21 of capacity 9"));
}

TEST(AllocateFlavor, NothingIsWithheldWhenTheFloorsExceedTheCapacity) {
  // b's lending limit would withhold 5, but the floors (2 + 10) already exceed 8.
  auto a = Solve(kFlat, 8 * k, {Demand("a", 2 * k, 8 * k, std::nullopt, 1 * k), Demand("b", 10 * k, 10 * k)});
  ASSERT_TRUE(a.oversubscribed);
  EXPECT_EQ(Team(a, "a").recommended_milli + Team(a, "b").recommended_milli, 8 * k);
  EXPECT_THAT(Explanation(a, Team(a, "a")), Not(HasSubstr("withholds")));
}

TEST(AllocateFlavor, SumNeverExceedsCapacityAndEveryTeamGetsItsFloor) {
  auto a = Solve(kFlat, 7777, {Demand("a", 5000, 1000), Demand("b", 2500, 3000), Demand("c", 9999, 0)});
  int64_t sum = 0;
  for (const auto& t : a.teams) {
    sum += t.recommended_milli;
    EXPECT_GE(t.recommended_milli, t.floor_milli) << t.input.team;
    EXPECT_LE(t.recommended_milli, t.effective_demand_milli) << t.input.team;
  }
  EXPECT_EQ(sum, 7777);
}

TEST(AllocateFlavor, RefusesDemandOnATeamWithTeamsBelowIt) {
  auto org = OrgTree::Build({{"org", "", 1}, {"lab", "org", 1}});
  ASSERT_TRUE(org.ok());
  EXPECT_THAT(AllocateFlavor(*org, {"gpu", k, {Demand("org", k)}}).status().message(),
              HasSubstr("flavor gpu, team org: has teams below it"));
  EXPECT_THAT(AllocateFlavor(*org, {"gpu", k, {Demand("lab", -1)}}).status().message(),
              HasSubstr("flavor gpu, team lab: demand -1 milli-devices is out of range"));
  EXPECT_THAT(AllocateFlavor(*org, {"gpu", k, {Demand("lab", 1), Demand("lab", 2)}}).status().message(),
              HasSubstr("team lab: appears twice"));
}

}  // namespace
}  // namespace fleetcap::allocation

#include "optimizer/allocation/dominant_resource_fairness.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fleetcap::allocation {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

DrfUser User(const std::string& name, std::vector<int64_t> per_task, int64_t weight = 1,
             std::optional<int64_t> max_tasks = std::nullopt) {
  DrfUser u;
  u.name = name;
  u.per_task = std::move(per_task);
  u.weight = weight;
  u.max_tasks = max_tasks;
  return u;
}

// The example of section 4 of the paper: 9 CPUs and 18 GB; A's tasks need
// <1 CPU, 4 GB>, B's <3 CPUs, 1 GB>. DRF gives A three tasks and B two, both
// at a dominant share of 2/3.
TEST(DominantResourceFairness, PapersExample) {
  auto tasks = DominantResourceFairness({9, 18}, {User("A", {1, 4}), User("B", {3, 1})});
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  EXPECT_THAT(*tasks, ElementsAre(3, 2));
}

TEST(DominantResourceFairness, OrderOfUsersDoesNotMatter) {
  auto tasks = DominantResourceFairness({9, 18}, {User("B", {3, 1}), User("A", {1, 4})});
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  EXPECT_THAT(*tasks, ElementsAre(2, 3));
}

TEST(DominantResourceFairness, WeightDoublesTheDominantShare) {
  // Two users with the same task <1 GPU, 1 CPU>; 12 GPUs: weight 2 gets twice as many.
  auto tasks = DominantResourceFairness({12, 100}, {User("a", {1, 1}, 2), User("b", {1, 1}, 1)});
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  EXPECT_THAT(*tasks, ElementsAre(8, 4));
}

TEST(DominantResourceFairness, DemandCapsAUserAndTheOthersTakeTheRest) {
  auto tasks = DominantResourceFairness({10, 10}, {User("a", {1, 1}, 1, 2), User("b", {1, 1})});
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  EXPECT_THAT(*tasks, ElementsAre(2, 8));
}

TEST(DominantResourceFairness, ResourceWithNoCapacityGetsNoTasks) {
  auto tasks = DominantResourceFairness({0, 10}, {User("a", {1, 1}), User("b", {0, 1})});
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  EXPECT_THAT(*tasks, ElementsAre(0, 10));
}

TEST(DominantResourceFairness, BadUsersAreNamed) {
  EXPECT_THAT(DominantResourceFairness({9, 18}, {User("A", {1})}).status().message(),
              HasSubstr("user A: needs 1 resources per task, expected 2"));
  EXPECT_THAT(DominantResourceFairness({9, 18}, {User("B", {0, 0})}).status().message(),
              HasSubstr("user B: a task that needs nothing"));
  EXPECT_THAT(DominantResourceFairness({9, 18}, {User("C", {-1, 2})}).status().message(),
              HasSubstr("user C: per-task need -1"));
}

}  // namespace
}  // namespace fleetcap::allocation

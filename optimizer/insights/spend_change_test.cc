// What ExplainSpendChange refuses, and its edges: money without held time,
// a workload whose held time appears, and the bound on contributions.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "optimizer/insights/spend_change.h"

namespace fleetcap::insights {
namespace {

SpendLine Line(const std::string& workload, const std::string& model, int64_t held, int64_t direct,
               const std::string& kind = "workload") {
  return {"vision", "cv", workload, model, "c1", kind, held, direct, 0, 0, direct};
}

int64_t Driver(const SpendChange& change, const std::string& name) {
  for (const SpendDriver& d : change.drivers) {
    if (d.name == name) return d.change_micro;
  }
  ADD_FAILURE() << "no driver " << name;
  return 0;
}

TEST(SpendChange, RefusesALineWhosePartsDoNotAddUpToItsTotal) {
  SpendLine bad = Line("train", "A100", 3600000, 7000000);
  bad.total_cost_micro += 1;
  absl::StatusOr<SpendChange> got = ExplainSpendChange({}, {bad}, 5);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(got.status().message(), ::testing::HasSubstr("current line 0 (vision/cv/train A100 c1 workload)"));
}

TEST(SpendChange, RefusesAnUnknownLineKindNegativeHeldTimeAndNegativeTop) {
  EXPECT_EQ(ExplainSpendChange({Line("train", "A100", 0, 0, "spare")}, {}, 5).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ExplainSpendChange({Line("train", "A100", -1, 0)}, {}, 5).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ExplainSpendChange({}, {}, -1).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(SpendChange, AWindowCostPastInt64IsOutOfRange) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  absl::StatusOr<SpendChange> got =
      ExplainSpendChange({}, {Line("train", "A100", 1, max), Line("serve", "A100", 1, max)}, 5);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kOutOfRange);
  // Each window within int64, their difference past it.
  got = ExplainSpendChange({Line("train", "A100", 1, -max)}, {Line("train", "A100", 1, max)}, 5);
  EXPECT_EQ(got.status().code(), absl::StatusCode::kOutOfRange);
}

TEST(SpendChange, MoneyWithoutHeldTimeIsPrice) {
  absl::StatusOr<SpendChange> got =
      ExplainSpendChange({Line("train", "A100", 3600000, 7000000), Line("train", "T4", 0, 100)},
                         {Line("train", "A100", 3600000, 7000000), Line("train", "T4", 0, 400)}, 5);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(Driver(*got, "price"), 300);
  EXPECT_EQ(Driver(*got, "held_time"), 0);
  EXPECT_EQ(Driver(*got, "model_mix"), 0);
}

TEST(SpendChange, AWorkloadThatHadOnlyMoneyWithoutTimeGainsHeldTimeNotMix) {
  // In both windows (it had a cost before), but with no time before: its
  // new time is held time at its new price; the old money left is price.
  absl::StatusOr<SpendChange> got =
      ExplainSpendChange({Line("train", "T4", 0, 100)}, {Line("train", "A100", 3600000, 7000000)}, 5);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(Driver(*got, "started"), 0);
  EXPECT_EQ(Driver(*got, "held_time"), 7000000);
  EXPECT_EQ(Driver(*got, "model_mix"), 0);
  EXPECT_EQ(Driver(*got, "price"), -100);
}

TEST(SpendChange, ListsAtMostTopContributionsTheLargestFirst) {
  std::vector<SpendLine> current;
  for (int i = 1; i <= 4; ++i) current.push_back(Line("w" + std::to_string(i), "A100", 3600000, i * 1000));
  absl::StatusOr<SpendChange> got = ExplainSpendChange({}, current, 2);
  ASSERT_TRUE(got.ok()) << got.status();
  const SpendDriver& started = got->drivers[0];
  ASSERT_EQ(started.name, "started");
  EXPECT_EQ(started.change_micro, 10000);
  ASSERT_EQ(started.top.size(), 2u);
  EXPECT_EQ(started.top[0].workload, "w4");
  EXPECT_EQ(started.top[1].workload, "w3");
  got = ExplainSpendChange({}, current, 0);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_THAT(got->drivers[0].top, ::testing::IsEmpty());
}

}  // namespace
}  // namespace fleetcap::insights

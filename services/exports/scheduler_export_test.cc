#include "services/exports/scheduler_export.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "services/exports/scheduler_test_policy.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using namespace ::fleetcap::exports::testing;  // NOLINT: the shared policy and rows

TEST(PolicyForExport, ParsesTheDocumentOrNamesTheVersionAndLine) {
  absl::StatusOr<policy::PolicyDocument> policy = PolicyForExport(kSchedulerTestPolicy, 7);
  ASSERT_THAT(policy, IsOk());
  EXPECT_EQ(policy->teams.size(), 4u);
  EXPECT_THAT(PolicyForExport("version: 1\nteams: 3\n", 7),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("policy version 7:2:")));
}

TEST(PrepareExport, GroupsRowsByLeafTeamInFlavorOrderWithEachFlavorsResource) {
  const policy::PolicyDocument policy = SchedulerTestPolicy();
  absl::StatusOr<ExportSet> set = PrepareExport(SchedulerTestRows(), policy, {});
  ASSERT_THAT(set, IsOk());
  std::vector<std::string> teams;
  for (const auto& [team, rows] : set->by_team) teams.push_back(team);
  EXPECT_THAT(teams, ElementsAre("ads", "speech", "vision"));
  std::vector<std::string> speech;
  for (const allocation::Recommendation& r : set->by_team.at("speech")) speech.push_back(r.flavor);
  EXPECT_THAT(speech, ElementsAre("a100", "v5p"));
  EXPECT_EQ(set->resource_of.at("v5p"), "google.com/tpu");
  EXPECT_EQ(set->resource_of.at("t4"), "nvidia.com/gpu");
  EXPECT_THAT(set->children.at("research"), ElementsAre("speech", "vision"));
}

TEST(PrepareExport, ABadResourceOverrideNamesTheFlavor) {
  EXPECT_THAT(PrepareExport(SchedulerTestRows(), SchedulerTestPolicy(), {{"v5p", "tpu"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flavor v5p: resource \"tpu\"")));
}

}  // namespace
}  // namespace fleetcap::exports

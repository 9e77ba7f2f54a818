#include "services/exports/volcano_manifests.h"

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "services/exports/kubernetes_names.h"
#include "services/exports/scheduler_test_policy.h"
#include "tests/support/status_matchers.h"
#include "yaml-cpp/yaml.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;
using namespace ::fleetcap::exports::testing;  // NOLINT: the shared policy and rows

std::map<std::string, YAML::Node> QueuesByName(const std::string& yaml) {
  std::map<std::string, YAML::Node> out;
  for (const YAML::Node& d : YAML::LoadAll(yaml)) {
    if (d.IsNull()) continue;
    EXPECT_EQ(d["apiVersion"].Scalar(), "scheduling.volcano.sh/v1beta1");
    EXPECT_EQ(d["kind"].Scalar(), "Queue");
    out.emplace(d["metadata"]["name"].Scalar(), d);
  }
  return out;
}

TEST(VolcanoManifests, WritesOneQueuePerLeafTeamExactly) {
  absl::StatusOr<std::string> yaml =
      VolcanoManifests({SchedulerTestRows()[0], SchedulerTestRows()[1]}, SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  // vision: a100 (9.5 recommended, 8 guaranteed of which 2 may be lent, at
  // most 8 + 4) and t4 (1.5, unlimited borrowing) share nvidia.com/gpu.
  EXPECT_EQ(*yaml,
            "---\n"
            "apiVersion: scheduling.volcano.sh/v1beta1\n"
            "kind: Queue\n"
            "metadata:\n"
            "  name: vision\n"
            "  labels:\n"
            "    app.kubernetes.io/managed-by: fleetcap\n"
            "  annotations:\n"
            "    fleetcap.io/team: \"vision\"\n"
            "spec:\n"
            "  weight: 2\n"
            "  reclaimable: true\n"
            "  guarantee:\n"
            "    resource:\n"
            "      nvidia.com/gpu: \"6\"\n"
            "  deserved:\n"
            "    nvidia.com/gpu: \"11\"\n");
}

TEST(VolcanoManifests, KeepsGuaranteeWithinDeservedWithinCapability) {
  std::vector<allocation::Recommendation> rows = SchedulerTestRows();
  rows[1].borrowing_limit_milli = 3000;  // vision's t4 now capped at 3: the resource has a capability
  rows.push_back({"speech", "t4", 1000, 10000, 1000, 0, 2000, "demand", ""});  // keeps 8 of 10 while using 1
  absl::StatusOr<std::string> yaml = VolcanoManifests(rows, SchedulerTestPolicy());
  ASSERT_THAT(yaml, IsOk());
  std::map<std::string, YAML::Node> queues = QueuesByName(*yaml);
  ASSERT_EQ(queues.size(), 3u);
  YAML::Node vision = queues.at("vision")["spec"];
  EXPECT_EQ(vision["capability"]["nvidia.com/gpu"].Scalar(), "15");  // 8 + 4 on a100, 0 + 3 on t4
  EXPECT_EQ(vision["deserved"]["nvidia.com/gpu"].Scalar(), "11");
  EXPECT_EQ(vision["guarantee"]["resource"]["nvidia.com/gpu"].Scalar(), "6");
  YAML::Node speech = queues.at("speech")["spec"];
  // t4: the 8 it may not lend is reserved and deserved though it uses 1.
  EXPECT_EQ(speech["guarantee"]["resource"]["nvidia.com/gpu"].Scalar(), "8");
  EXPECT_EQ(speech["deserved"]["nvidia.com/gpu"].Scalar(), "12");  // 4 on a100 + 8 on t4
  EXPECT_EQ(speech["deserved"]["google.com/tpu"].Scalar(), "2");
  EXPECT_FALSE(speech["capability"]);  // a100 and v5p borrow without limit
  YAML::Node ads = queues.at("ads")["spec"];
  EXPECT_FALSE(ads["guarantee"]);  // it may lend all of its guarantee
  EXPECT_EQ(ads["deserved"]["nvidia.com/gpu"].Scalar(), "10");
  EXPECT_EQ(ads["weight"].as<int>(), 1);
}

TEST(VolcanoManifests, TheOutputDoesNotDependOnTheOrderOfTheRows) {
  std::vector<allocation::Recommendation> rows = SchedulerTestRows();
  absl::StatusOr<std::string> first = VolcanoManifests(rows, SchedulerTestPolicy());
  std::reverse(rows.begin(), rows.end());
  absl::StatusOr<std::string> second = VolcanoManifests(rows, SchedulerTestPolicy());
  ASSERT_THAT(first, IsOk());
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(*first, *second);
}

TEST(VolcanoManifests, VolcanosOwnQueueNamesAndCollisionsAreErrors) {
  policy::PolicyDocument policy = SchedulerTestPolicy();
  policy.teams.push_back({"Default", "", "team", 1, "", "", 0, {}});
  std::vector<allocation::Recommendation> rows = {{"Default", "t4", 0, 0, 1000, std::nullopt, 0, "demand", ""}};
  EXPECT_THAT(VolcanoManifests(rows, policy),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("team Default"), HasSubstr("Volcano's default queue"))));
  policy.teams.push_back({"ads_", "", "team", 1, "", "", 0, {}});
  rows = {{"ads", "t4", 0, 0, 1000, std::nullopt, 0, "demand", ""},
          {"ads_", "t4", 0, 0, 1000, std::nullopt, 0, "demand", ""}};
  EXPECT_THAT(VolcanoManifests(rows, policy),
              StatusIs(absl::StatusCode::kInvalidArgument, AllOf(HasSubstr("team ads_"), HasSubstr("as is ads"))));
}

TEST(VolcanoManifests, ResourceOverridesNameTheQueuesResources) {
  VolcanoOptions options;
  options.resources["a100"] = "nvidia.com/mig-3g.40gb";
  absl::StatusOr<std::string> yaml = VolcanoManifests({SchedulerTestRows()[0]}, SchedulerTestPolicy(), options);
  ASSERT_THAT(yaml, IsOk());
  EXPECT_EQ(QueuesByName(*yaml).at("vision")["spec"]["deserved"]["nvidia.com/mig-3g.40gb"].Scalar(), "9500m");
  options.resources["a100"] = "mig";
  EXPECT_THAT(VolcanoManifests({SchedulerTestRows()[0]}, SchedulerTestPolicy(), options),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flavor a100")));
}

}  // namespace
}  // namespace fleetcap::exports

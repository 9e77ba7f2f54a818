#include "services/exports/recommendations_export.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "services/exports/scheduler_test_policy.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::exports {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(RecommendationRows, CarryEveryQuotaFieldAndUnlimitedBorrowingAsNone) {
  v1::RecommendationSet set;
  v1::Recommendation* a = set.add_recommendations();
  a->set_team("vision");
  a->set_flavor("a100");
  a->set_demand_milli(16000);
  a->set_guarantee_milli(8000);
  a->set_recommended_milli(14000);
  a->set_borrowing_limit_milli(6000);
  a->set_lending_limit_milli(2000);
  a->set_bound_by("borrowing_limit");
  v1::Recommendation* b = set.add_recommendations();
  b->set_team("speech");
  b->set_flavor("a100");
  b->set_recommended_milli(1500);
  b->set_bound_by("demand");

  const std::vector<allocation::Recommendation> rows = RecommendationRows(set);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].team, "vision");
  EXPECT_EQ(rows[0].demand_milli, 16000);
  EXPECT_EQ(rows[0].guarantee_milli, 8000);
  EXPECT_EQ(rows[0].recommended_milli, 14000);
  EXPECT_EQ(rows[0].borrowing_limit_milli, 6000);
  EXPECT_EQ(rows[0].lending_limit_milli, 2000);
  EXPECT_EQ(rows[0].bound_by, "borrowing_limit");
  EXPECT_EQ(rows[1].team, "speech");
  EXPECT_FALSE(rows[1].borrowing_limit_milli.has_value());
}

TEST(SchedulerManifests, TheNodeLabelsASetCarriesBecomeItsResourceFlavorsNodeLabels) {
  v1::RecommendationSet set;
  v1::Recommendation* vision = set.add_recommendations();
  vision->set_team("vision");
  vision->set_flavor("a100");
  vision->set_recommended_milli(8000);
  vision->set_bound_by("demand");
  v1::FlavorNodeLabels* a100 = set.add_flavor_node_labels();
  a100->set_flavor("a100");
  (*a100->mutable_labels())["nvidia.com/gpu.product"] = "NVIDIA-A100-SXM4-80GB";
  (*a100->mutable_labels())["cloud.google.com/gke-nodepool"] = "a100-pool";
  const policy::PolicyDocument policy = testing::SchedulerTestPolicy();

  // What `fleetcapctl recommendations --format kueue` passes: the set's labels, and the pool label over them.
  SchedulerExportOptions options;
  options.node_labels = FlavorNodeLabelsOf(set);
  ASSERT_EQ(options.node_labels.size(), 1u);
  EXPECT_EQ(options.node_labels.at("a100").at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-80GB");
  options.pool_label = "example.com/pool";
  auto manifests = SchedulerManifests(set, policy, SchedulerFormat::kKueue, options);
  ASSERT_THAT(manifests, IsOk());
  EXPECT_THAT(*manifests, HasSubstr("spec:\n  nodeLabels:\n    cloud.google.com/gke-nodepool: \"a100-pool\"\n"
                                    "    example.com/pool: \"a100-pool\"\n"
                                    "    nvidia.com/gpu.product: \"NVIDIA-A100-SXM4-80GB\"\n"));
  EXPECT_THAT(*manifests, Not(HasSubstr("No node label is known"))) << *manifests;

  // A set without labels: the flavor matches every node, as before.
  set.clear_flavor_node_labels();
  EXPECT_TRUE(FlavorNodeLabelsOf(set).empty());
  auto bare = SchedulerManifests(set, policy, SchedulerFormat::kKueue, SchedulerExportOptions());
  ASSERT_THAT(bare, IsOk());
  EXPECT_THAT(*bare, HasSubstr("No node label is known for flavor a100"));
}

TEST(ParseFlavorResources, ReadsTheListAndNamesABadEntry) {
  auto parsed = ParseFlavorResources("a100-mig=nvidia.com/mig-3g.40gb,v5e=google.com/tpu");
  ASSERT_THAT(parsed, IsOk());
  EXPECT_EQ(parsed->at("a100-mig"), "nvidia.com/mig-3g.40gb");
  EXPECT_EQ(parsed->at("v5e"), "google.com/tpu");
  EXPECT_THAT(ParseFlavorResources(""), IsOk());
  EXPECT_THAT(ParseFlavorResources("a100"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--flavor-resource: \"a100\" is not")));
  EXPECT_THAT(ParseFlavorResources("=nvidia.com/gpu"), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParseFlavorResources("a100="), StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(ParseFlavorResources("a=x,a=y"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("flavor \"a\" is given twice")));
}

}  // namespace
}  // namespace fleetcap::exports

// GET /v1/recommendations/manifests for a team token: only the team's own
// ClusterQueues. The Cohorts above them hold the fleet's and the orgs'
// quotas (the root Cohort's is the fleet's capacity less every team's
// recommendation), figures a team reads nowhere else.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/allocation.grpc.pb.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "store/test_inventory.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

using fleetcap::testing::kApiBin;

// research > vision and speech; ads beside it; 20 A100s in the fleet.
constexpr char kTeamManifestsPolicy[] = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: speech
    parent: research
  - name: ads
flavors:
  - name: a100
    model: A100-SXM4-80GB
    capacity: 20
allocation:
  - {team: vision, flavor: a100, guarantee: 8, borrowing_limit: 6}
namespaces:
  - namespace: vision-ns
    team: vision
)";

class TeamManifestsTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    ApiOnMigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    auto stub =
        v1::PolicyService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + api_->admin_token);
    v1::ApplyPolicyRequest apply;
    apply.set_document(kTeamManifestsPolicy);
    v1::ApplyPolicyResponse applied;
    grpc::Status status = stub->ApplyPolicy(&context, apply, &applied);
    ASSERT_TRUE(status.ok()) << status.error_message();

    store::AllocationRunDraft run;
    run.computed_at = absl::FromUnixSeconds(1'772'366'400);
    run.policy_version = applied.policy().version();
    for (const auto& [team, milli] :
         std::vector<std::pair<std::string, int64_t>>{{"ads", 2000}, {"speech", 1500}, {"vision", 14000}}) {
      store::AllocationRecommendationRecord r;
      r.team = team;
      r.flavor = "a100";
      r.demand_milli = r.recommended_milli = milli;
      r.bound_by = "demand";
      run.recommendations.push_back(r);
    }
    run.recommendations[2].guarantee_milli = run.recommendations[2].lending_limit_milli = 8000;
    run.recommendations[2].borrowing_limit_milli = 6000;
    ASSERT_THAT(store::PgAllocationRunRepository(pool()).StoreRun(run), IsOk());
  }

  testing::HttpResult Manifests(const std::string& role, const std::string& format) {
    auto token = testing::MintToken(db_->uri(), role);
    EXPECT_THAT(token, IsOk());
    auto got = testing::HttpGet(api_->http_base() + "/v1/recommendations/manifests?format=" + format,
                                token.ok() ? *token : "");
    EXPECT_THAT(got, IsOk());
    return got.ok() ? *got : testing::HttpResult{};
  }
};

TEST_F(TeamManifestsTest, ATeamsKueueManifestsCarryOnlyItsOwnClusterQueue) {
  // The fleet's view: flavors, the org and root Cohorts (the root's quota:
  // 20 - 2 - 1.5 - 14 recommended to no team), every team's queue.
  const testing::HttpResult fleet = Manifests("planner", "kueue");
  ASSERT_EQ(fleet.status, 200) << fleet.body;
  EXPECT_THAT(fleet.body, HasSubstr("kind: ResourceFlavor"));
  EXPECT_THAT(fleet.body, HasSubstr("kind: Cohort"));
  EXPECT_THAT(fleet.body, HasSubstr("nominalQuota: \"2500m\""));
  EXPECT_THAT(fleet.body, HasSubstr("name: speech"));

  const testing::HttpResult team = Manifests("team:vision", "kueue");
  ASSERT_EQ(team.status, 200) << team.body;
  EXPECT_THAT(team.body, HasSubstr("kind: ClusterQueue"));
  EXPECT_THAT(team.body, HasSubstr("name: vision"));
  EXPECT_THAT(team.body, HasSubstr("nominalQuota: \"14\""));
  EXPECT_THAT(team.body, HasSubstr("cohortName: research"));  // where it borrows, by name only
  EXPECT_THAT(team.body, Not(HasSubstr("kind: Cohort"))) << team.body;
  EXPECT_THAT(team.body, Not(HasSubstr("kind: ResourceFlavor"))) << team.body;
  EXPECT_THAT(team.body, Not(HasSubstr("2500m"))) << team.body;
  EXPECT_THAT(team.body, Not(HasSubstr("nominalQuota: \"6\""))) << "the fleet less the team's share";
  EXPECT_THAT(team.body, Not(HasSubstr("speech"))) << team.body;
  EXPECT_THAT(team.body, Not(HasSubstr("ads"))) << team.body;
  // Its only object: one document.
  EXPECT_EQ(team.body.find("---", 1), std::string::npos) << team.body;
}

TEST_F(TeamManifestsTest, AResourceFlavorSelectsTheNodesTheInventoryHoldsOfItsModel) {
  // Before any node is known: the flavor matches every node, and says so.
  const testing::HttpResult before = Manifests("planner", "kueue");
  ASSERT_EQ(before.status, 200) << before.body;
  EXPECT_THAT(before.body, HasSubstr("# No node label is known for flavor a100 (model A100-SXM4-80GB): this "
                                     "ResourceFlavor matches every node.\n"));

  ASSERT_THAT(
      store::PgLiveInventoryRepository(pool()).Apply(store::LabelledA100Nodes({{"n1", "pool-n1"}, {"n2", "pool-n2"}})),
      IsOk());

  // The model's label, which both nodes share; not the pool, which they do not.
  const testing::HttpResult fleet = Manifests("planner", "kueue");
  ASSERT_EQ(fleet.status, 200) << fleet.body;
  EXPECT_THAT(fleet.body, HasSubstr("  name: a100\n  labels:\n    app.kubernetes.io/managed-by: fleetcap\n"
                                    "  annotations:\n    fleetcap.io/flavor: \"a100\"\nspec:\n  nodeLabels:\n"
                                    "    nvidia.com/gpu.product: \"NVIDIA-A100-SXM4-80GB\"\n---\n"));
  EXPECT_THAT(fleet.body, Not(HasSubstr("No node label is known"))) << fleet.body;
  EXPECT_THAT(fleet.body, Not(HasSubstr("gke-nodepool"))) << fleet.body;
}

TEST_F(TeamManifestsTest, TheRecommendationSetCarriesTheNodeLabelsItsFlavorsShare) {
  auto stub =
      v1::AllocationService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  const auto get = [&](const std::string& role, v1::RecommendationSet* set) {
    auto token = testing::MintToken(db_->uri(), role);
    EXPECT_THAT(token, IsOk());
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + (token.ok() ? *token : ""));
    return stub->GetRecommendations(&context, v1::GetRecommendationsRequest(), set);
  };
  // Before any node is known: no flavor has a label.
  v1::RecommendationSet before;
  grpc::Status status = get("scheduler", &before);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(before.flavor_node_labels_size(), 0);

  ASSERT_THAT(
      store::PgLiveInventoryRepository(pool()).Apply(store::LabelledA100Nodes({{"n1", "pool-n1"}, {"n2", "pool-n2"}})),
      IsOk());

  // The model's label, which both nodes share; not the pool, which they do not.
  v1::RecommendationSet fleet;
  status = get("scheduler", &fleet);
  ASSERT_TRUE(status.ok()) << status.error_message();
  ASSERT_EQ(fleet.flavor_node_labels_size(), 1) << fleet.DebugString();
  EXPECT_EQ(fleet.flavor_node_labels(0).flavor(), "a100");
  const auto& labels = fleet.flavor_node_labels(0).labels();
  ASSERT_EQ(labels.size(), 1u) << fleet.DebugString();
  EXPECT_EQ(labels.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-80GB");

  // HTTP serves the same set.
  auto token = testing::MintToken(db_->uri(), "planner");
  ASSERT_THAT(token, IsOk());
  auto http = testing::HttpGet(api_->http_base() + "/v1/recommendations", *token);
  ASSERT_THAT(http, IsOk());
  EXPECT_THAT(http->body, HasSubstr("\"flavorNodeLabels\":[{\"flavor\":\"a100\",\"labels\":{"
                                    "\"nvidia.com/gpu.product\":\"NVIDIA-A100-SXM4-80GB\"}}]"));

  // A team token, whose manifests hold no ResourceFlavor, gets none.
  v1::RecommendationSet team;
  status = get("team:vision", &team);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_GT(team.recommendations_size(), 0);
  EXPECT_EQ(team.flavor_node_labels_size(), 0);
}

TEST_F(TeamManifestsTest, ATeamsVolcanoManifestsCarryOnlyItsOwnQueue) {
  const testing::HttpResult team = Manifests("team:vision", "volcano");
  ASSERT_EQ(team.status, 200) << team.body;
  EXPECT_THAT(team.body, HasSubstr("kind: Queue"));
  EXPECT_THAT(team.body, HasSubstr("name: vision"));
  EXPECT_THAT(team.body, Not(HasSubstr("speech"))) << team.body;
  EXPECT_THAT(team.body, Not(HasSubstr("ads"))) << team.body;
  EXPECT_EQ(team.body.find("---", 1), std::string::npos) << team.body;
}

}  // namespace
}  // namespace fleetcap

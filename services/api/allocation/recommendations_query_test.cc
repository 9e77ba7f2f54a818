#include "services/api/allocation/recommendations_query.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_replace.h"
#include "proto_time.h"
#include "services/api/test_scopes.h"
#include "store/memory_allocation_run_repository.h"
#include "store/memory_control_repositories.h"
#include "store/memory_live_inventory_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const absl::Time kT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

constexpr const char* kPolicy = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: vision-detect
    parent: vision
  - name: ads
    kind: org
)";

Scope WithRole(Role role) {
  Scope scope;
  scope.role = role;
  return scope;
}

// A team token as the Authenticator makes it: the team and its subtree.
using test_scopes::TeamScope;

store::AllocationRecommendationRecord Record(const std::string& team, int64_t recommended) {
  store::AllocationRecommendationRecord r;
  r.team = team;
  r.flavor = "a100";
  r.demand_milli = recommended * 2;
  r.guarantee_milli = 1000;
  r.recommended_milli = recommended;
  r.lending_limit_milli = 500;
  r.bound_by = "fair_share";
  r.explanation = "fair share of a100";
  return r;
}

v1::GetRecommendationsRequest ForTeam(const std::string& team) {
  v1::GetRecommendationsRequest request;
  request.set_team(team);
  return request;
}

std::vector<std::string> TeamsOf(const v1::RecommendationSet& set) {
  std::vector<std::string> teams;
  for (const auto& r : set.recommendations()) teams.push_back(r.team());
  return teams;
}

class RecommendationsQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::PolicyVersionRecord record;
    record.document = kPolicy;
    record.applied_at = kT0;
    ASSERT_THAT(policies_.Apply(record, std::nullopt, store::AuditEntry{}), IsOk());
  }

  void StoreRun() {
    store::AllocationRunDraft run;
    run.computed_at = kT0 + absl::Minutes(5);
    run.policy_version = 1;
    run.recommendations = {Record("ads", 4000), Record("research", 0), Record("vision", 2000),
                           Record("vision-detect", 3000)};
    run.recommendations[1].borrowing_limit_milli = 0;
    run.recommendations[0].measured_demand_milli = 6500;  // before the headroom
    ASSERT_THAT(runs_.StoreRun(run), IsOk());
  }

  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  store::MemoryAllocationRunRepository runs_;
  RecommendationsQuery query_{&runs_, &cache_};
};

TEST_F(RecommendationsQueryTest, BeforeTheFirstRunTheAnswerIsNotFound) {
  EXPECT_THAT(query_.Run(WithRole(Role::kScheduler), {}),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no allocation run yet")));
  auto latest = query_.LatestRunId();
  ASSERT_THAT(latest, IsOk());
  EXPECT_FALSE(latest->has_value());
}

TEST_F(RecommendationsQueryTest, TheSetCarriesTheRunAndEveryField) {
  StoreRun();
  auto set = query_.Run(WithRole(Role::kScheduler), {});
  ASSERT_THAT(set, IsOk());
  EXPECT_EQ(set->run_id(), 1);
  EXPECT_EQ(FromProtoTimestamp(set->computed_at()), kT0 + absl::Minutes(5));
  EXPECT_EQ(set->policy_version(), 1);
  ASSERT_EQ(set->recommendations_size(), 4);
  const v1::Recommendation& ads = set->recommendations(0);
  EXPECT_EQ(ads.team(), "ads");
  EXPECT_EQ(ads.flavor(), "a100");
  EXPECT_EQ(ads.demand_milli(), 8000);
  EXPECT_EQ(ads.guarantee_milli(), 1000);
  EXPECT_EQ(ads.recommended_milli(), 4000);
  EXPECT_EQ(ads.lending_limit_milli(), 500);
  EXPECT_EQ(ads.bound_by(), "fair_share");
  EXPECT_EQ(ads.explanation(), "fair share of a100");
  // Unlimited borrowing is an unset field; a limit of zero is set to zero.
  EXPECT_FALSE(ads.has_borrowing_limit_milli());
  EXPECT_TRUE(set->recommendations(1).has_borrowing_limit_milli());
  EXPECT_EQ(set->recommendations(1).borrowing_limit_milli(), 0);
}

TEST_F(RecommendationsQueryTest, EachRecommendationCarriesTheMeasuredDemandAndTheKueueLimitsAsExported) {
  StoreRun();
  auto set = query_.Run(WithRole(Role::kScheduler), {});
  ASSERT_THAT(set, IsOk());
  const v1::Recommendation& ads = set->recommendations(0);
  EXPECT_EQ(ads.measured_demand_milli(), 6500);
  EXPECT_FALSE(set->recommendations(1).has_measured_demand_milli());  // nothing measured
  // ads: unlimited borrowing, so no borrowingLimit; 4 - (1 - 0.5) = 3.5 it may lend.
  EXPECT_FALSE(ads.has_kueue_borrowing_limit());
  EXPECT_EQ(ads.kueue_lending_limit(), "3500m");
  // research: recommended 0 under a guarantee of 1 with no borrowing: Kueue may let it borrow up to 1.
  const v1::Recommendation& research = set->recommendations(1);
  EXPECT_EQ(research.kueue_borrowing_limit(), "1");
  EXPECT_EQ(research.kueue_lending_limit(), "0");
}

TEST_F(RecommendationsQueryTest, EachRecommendationSaysWhatThePreviousRunRecommended) {
  StoreRun();
  auto first = query_.Run(WithRole(Role::kScheduler), {});
  ASSERT_THAT(first, IsOk());
  EXPECT_EQ(first->previous_run_id(), 0);
  for (const auto& r : first->recommendations()) EXPECT_FALSE(r.has_previous_recommended_milli()) << r.team();

  store::AllocationRunDraft second;
  second.computed_at = kT0 + absl::Hours(1);
  second.policy_version = 1;
  second.recommendations = {Record("ads", 3000), Record("vision", 2000), Record("newcomer", 1000)};
  ASSERT_THAT(runs_.StoreRun(second), IsOk());
  auto set = query_.Run(WithRole(Role::kScheduler), {});
  ASSERT_THAT(set, IsOk());
  EXPECT_EQ(set->run_id(), 2);
  EXPECT_EQ(set->previous_run_id(), 1);
  ASSERT_EQ(set->recommendations_size(), 3);
  EXPECT_EQ(set->recommendations(0).team(), "ads");
  EXPECT_EQ(set->recommendations(0).previous_recommended_milli(), 4000);
  // New in this run: no previous figure, not a zero.
  EXPECT_EQ(set->recommendations(1).team(), "newcomer");
  EXPECT_FALSE(set->recommendations(1).has_previous_recommended_milli());
  EXPECT_EQ(set->recommendations(2).team(), "vision");
  EXPECT_TRUE(set->recommendations(2).has_previous_recommended_milli());
  EXPECT_EQ(set->recommendations(2).previous_recommended_milli(), 2000);
}

TEST_F(RecommendationsQueryTest, SchedulersPlannersAndAdminsReadEveryTeam) {
  StoreRun();
  for (Role role : {Role::kScheduler, Role::kPlanner, Role::kAdmin}) {
    auto set = query_.Run(WithRole(role), {});
    ASSERT_THAT(set, IsOk());
    EXPECT_THAT(TeamsOf(*set), ElementsAre("ads", "research", "vision", "vision-detect"));
  }
}

TEST_F(RecommendationsQueryTest, ATeamFilterSelectsTheTeamAndThoseUnderIt) {
  StoreRun();
  auto research = query_.Run(WithRole(Role::kScheduler), ForTeam("research"));
  ASSERT_THAT(research, IsOk());
  EXPECT_THAT(TeamsOf(*research), ElementsAre("research", "vision", "vision-detect"));
  auto vision = query_.Run(WithRole(Role::kPlanner), ForTeam("vision"));
  ASSERT_THAT(vision, IsOk());
  EXPECT_THAT(TeamsOf(*vision), ElementsAre("vision", "vision-detect"));
  // A team the policy does not know selects just itself (here: nothing).
  auto gone = query_.Run(WithRole(Role::kPlanner), ForTeam("retired"));
  ASSERT_THAT(gone, IsOk());
  EXPECT_EQ(gone->recommendations_size(), 0);
  EXPECT_EQ(gone->run_id(), 1);
}

TEST_F(RecommendationsQueryTest, ATeamTokenReadsItsOwnSubtreeOnly) {
  StoreRun();
  const Scope vision = TeamScope("vision", {"vision", "vision-detect"});
  auto all = query_.Run(vision, {});
  ASSERT_THAT(all, IsOk());
  EXPECT_THAT(TeamsOf(*all), ElementsAre("vision", "vision-detect"));
  auto below = query_.Run(vision, ForTeam("vision-detect"));
  ASSERT_THAT(below, IsOk());
  EXPECT_THAT(TeamsOf(*below), ElementsAre("vision-detect"));
}

TEST_F(RecommendationsQueryTest, ATeamTokenNamingATeamOutsideItsSubtreeIsDenied) {
  StoreRun();
  const Scope vision = TeamScope("vision", {"vision", "vision-detect"});
  // Another org, the team's own parent, and a team that does not exist: one
  // answer.
  for (const char* other : {"ads", "research", "nobody"}) {
    EXPECT_THAT(query_.Run(vision, ForTeam(other)),
                StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("team: outside the scope of this token")))
        << other;
  }
}

TEST_F(RecommendationsQueryTest, ATeamFilterThatIsNotANameIsInvalid) {
  StoreRun();
  EXPECT_THAT(query_.Run(WithRole(Role::kScheduler), ForTeam("a b")),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("team: \"a b\" is not a team name")));
  EXPECT_THAT(query_.Run(WithRole(Role::kScheduler), ForTeam(std::string(10'000, 'x'))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("team: 10000 bytes is not a team name")));
}

// kPolicy with flavors: an A100 flavor in any pool and a T4 flavor no node has.
constexpr const char* kPolicyWithFlavors = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: vision-detect
    parent: vision
  - name: ads
    kind: org
flavors:
  - name: a100
    model: A100-SXM4-80GB
    capacity: 8
  - name: t4
    model: T4
    capacity: 8
)";

TEST_F(RecommendationsQueryTest, TheSetCarriesTheNodeLabelsItsFlavorsShareExceptForATeamToken) {
  store::PolicyVersionRecord record;
  record.document = kPolicyWithFlavors;
  record.applied_at = kT0;
  ASSERT_THAT(policies_.Apply(record, 1, store::AuditEntry{}), IsOk());
  store::MemoryLiveInventoryRepository inventory;
  store::InventoryChanges changes;
  changes.cluster = "c1";
  changes.types = {{"A100-SXM4-80GB", "nvidia", "nvidia.com/gpu"}};
  store::LiveNode node({"n1", "pool-1", 64000, 524288, kT0, std::nullopt}, "");
  node.model_label_key = "nvidia.com/gpu.product";
  node.model_label_value = "NVIDIA-A100-SXM4-80GB";
  changes.nodes.push_back(node);
  changes.devices.push_back({"n1/gpu0", "n1", 0, "A100-SXM4-80GB", kT0, std::nullopt});
  ASSERT_THAT(inventory.Apply(changes), IsOk());
  const RecommendationsQuery query(&runs_, &cache_, &policies_, &inventory);

  store::AllocationRunDraft run;
  run.computed_at = kT0 + absl::Minutes(5);
  run.policy_version = 2;
  run.recommendations = {Record("ads", 4000), Record("vision", 2000)};
  run.recommendations[1].flavor = "t4";
  ASSERT_THAT(runs_.StoreRun(run), IsOk());
  auto set = query.Run(WithRole(Role::kScheduler), {});
  ASSERT_THAT(set, IsOk());
  // The A100 flavor's label; none for T4, whose model no node has.
  ASSERT_EQ(set->flavor_node_labels_size(), 1) << set->DebugString();
  EXPECT_EQ(set->flavor_node_labels(0).flavor(), "a100");
  EXPECT_EQ(set->flavor_node_labels(0).labels().at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-80GB");
  EXPECT_EQ(set->flavor_node_labels(0).labels().size(), 1u);

  auto team = query.Run(TeamScope("ads", {"ads"}), {});
  ASSERT_THAT(team, IsOk());
  EXPECT_EQ(team->recommendations_size(), 1);
  EXPECT_EQ(team->flavor_node_labels_size(), 0);

  // A run under a policy version that is not stored is still served, without labels.
  run.policy_version = 7;
  ASSERT_THAT(runs_.StoreRun(run), IsOk());
  auto unknown = query.Run(WithRole(Role::kScheduler), {});
  ASSERT_THAT(unknown, IsOk());
  EXPECT_EQ(unknown->recommendations_size(), 2);
  EXPECT_EQ(unknown->flavor_node_labels_size(), 0);
}

TEST_F(RecommendationsQueryTest, AFlavorsNodeLabelsAreThoseOfItsClustersNodes) {
  store::PolicyVersionRecord record;
  record.document = absl::StrReplaceAll(kPolicyWithFlavors,
                                        {{"model: A100-SXM4-80GB\n", "model: A100-SXM4-80GB\n    cluster: train-*\n"}});
  record.applied_at = kT0;
  ASSERT_THAT(policies_.Apply(record, 1, store::AuditEntry{}), IsOk());
  // The flavor's cluster labels its A100s one way; another cluster, which the flavor does not cover, another.
  store::MemoryLiveInventoryRepository inventory;
  for (const auto& [cluster, product] : std::vector<std::pair<std::string, std::string>>{
           {"train-1", "NVIDIA-A100-SXM4-80GB"}, {"serve-1", "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb"}}) {
    store::InventoryChanges changes;
    changes.cluster = cluster;
    changes.types = {{"A100-SXM4-80GB", "nvidia", "nvidia.com/gpu"}};
    store::LiveNode node({"n1", "pool-1", 64000, 524288, kT0, std::nullopt}, "");
    node.model_label_key = "nvidia.com/gpu.product";
    node.model_label_value = product;
    changes.nodes.push_back(node);
    changes.devices.push_back({"n1/gpu0", "n1", 0, "A100-SXM4-80GB", kT0, std::nullopt});
    ASSERT_THAT(inventory.Apply(changes), IsOk());
  }
  const RecommendationsQuery query(&runs_, &cache_, &policies_, &inventory);
  store::AllocationRunDraft run;
  run.computed_at = kT0 + absl::Minutes(5);
  run.policy_version = 2;
  run.recommendations = {Record("ads", 4000)};
  ASSERT_THAT(runs_.StoreRun(run), IsOk());

  auto set = query.Run(WithRole(Role::kScheduler), {});
  ASSERT_THAT(set, IsOk());
  ASSERT_EQ(set->flavor_node_labels_size(), 1) << set->DebugString();
  EXPECT_EQ(set->flavor_node_labels(0).labels().at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-80GB");
}

TEST(RecommendationsRequestFromQuery, TakesTheTeam) {
  EXPECT_EQ(RecommendationsRequestFromQuery({{"team", "vision"}})->team(), "vision");
  EXPECT_EQ(RecommendationsRequestFromQuery({})->team(), "");
  EXPECT_THAT(RecommendationsRequestFromQuery({{"flavor", "a100"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("query parameter flavor: unknown")));
}

}  // namespace
}  // namespace fleetcap::api

#include "services/api/fleet/pending_demand.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto_time.h"
#include "store/memory_demand_history_repository.h"
#include "store/memory_team_facts_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

const absl::Time kPendingT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

constexpr const char* kPendingPolicy = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: ads
    kind: org
namespaces:
  - namespace: vision-ns
    team: vision
  - namespace: ads-ns
    team: ads
)";

store::PendingPodRecord Pending(const std::string& cluster, const std::string& uid, const std::string& ns,
                                int64_t milli, absl::Time since, const std::string& name) {
  return {cluster, uid, ns, "", "nvidia.com/gpu", "A100", milli, since, name};
}

class PendingDemandQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    facts_.Apply(kPendingPolicy, kPendingT0 - absl::Hours(24));
    demand_.AddPending(Pending("c1", "u-ads", "ads-ns", 2000, kPendingT0 - absl::Minutes(10), "train-ads"));
    demand_.AddPending(Pending("c1", "u-vision", "vision-ns", 1000, kPendingT0 - absl::Minutes(20), "train-vision"));
    demand_.AddPending(Pending("c2", "u-other", "misc", 500, kPendingT0 - absl::Minutes(5), ""));
    // Waits that are over, or not begun, are not pending now.
    demand_.AddPending(Pending("c1", "u-done", "ads-ns", 4000, kPendingT0 - absl::Hours(2), "done"),
                       kPendingT0 - absl::Hours(1));
    demand_.AddPending(Pending("c1", "u-later", "ads-ns", 8000, kPendingT0 + absl::Minutes(1), "later"));
  }

  std::vector<std::string> Pods(const v1::PendingDemand& demand) {
    std::vector<std::string> pods;
    for (const auto& p : demand.pods()) pods.push_back(p.cluster() + "/" + p.pod() + "/" + p.team());
    return pods;
  }

  SimulatedClock clock_{kPendingT0};
  store::MemoryTeamFactsRepository facts_;
  TeamAttribution teams_{&facts_};
  store::MemoryDemandHistoryRepository demand_;
  PendingDemandQuery query_{&demand_, &teams_, &clock_};
};

TEST_F(PendingDemandQueryTest, PlannersSeeEveryWaitingPodOldestFirstWithItsTeam) {
  auto demand = query_.Run(Scope{}, v1::ListPendingDemandRequest{});
  ASSERT_THAT(demand, IsOk());
  // A pod the inventory never named is shown by its uid; no rule maps "misc".
  EXPECT_THAT(Pods(*demand), ElementsAre("c1/train-vision/vision", "c1/train-ads/ads", "c2/u-other/unassigned"));
  EXPECT_EQ(demand->requested_milli(), 3500);
  EXPECT_EQ(FromProtoTimestamp(demand->pods(0).pending_since()), kPendingT0 - absl::Minutes(20));
  EXPECT_EQ(demand->pods(0).namespace_(), "vision-ns");
  EXPECT_EQ(demand->pods(0).model(), "A100");
  EXPECT_EQ(demand->pods(0).requested_milli(), 1000);
}

TEST_F(PendingDemandQueryTest, AClusterFilterKeepsItsPods) {
  v1::ListPendingDemandRequest request;
  request.set_cluster("c2");
  auto demand = query_.Run(Scope{}, request);
  ASSERT_THAT(demand, IsOk());
  EXPECT_THAT(Pods(*demand), ElementsAre("c2/u-other/unassigned"));
  EXPECT_EQ(demand->requested_milli(), 500);
  request.set_cluster(std::string(300, 'c'));
  EXPECT_THAT(query_.Run(Scope{}, request), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cluster")));
}

TEST_F(PendingDemandQueryTest, ATeamTokenSeesOnlyItsSubtreesPods) {
  Scope vision;
  vision.role = Role::kTeam;
  vision.team = "vision";
  vision.teams = {"vision"};
  auto demand = query_.Run(vision, v1::ListPendingDemandRequest{});
  ASSERT_THAT(demand, IsOk());
  EXPECT_THAT(Pods(*demand), ElementsAre("c1/train-vision/vision"));
  EXPECT_EQ(demand->requested_milli(), 1000);
}

TEST_F(PendingDemandQueryTest, TheAnswerIsBounded) {
  PendingDemandQuery two(&demand_, &teams_, &clock_, /*max_pods=*/2);
  auto demand = two.Run(Scope{}, v1::ListPendingDemandRequest{});
  ASSERT_THAT(demand, IsOk());
  EXPECT_EQ(demand->pods_size(), 2);
}

TEST(PendingDemandRequestFromQueryTest, NamesAnUnknownParameter) {
  auto request = PendingDemandRequestFromQuery({{"cluster", "c1"}});
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->cluster(), "c1");
  EXPECT_THAT(PendingDemandRequestFromQuery({{"team", "x"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("team")));
}

}  // namespace
}  // namespace fleetcap::api

#include "services/api/chargeback/chargeback_explain.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "proto_time.h"
#include "services/api/fleet/fleet_summary.h"
#include "store/cluster_inventory_changes.h"
#include "store/memory_attribution_facts_repository.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_live_inventory_repository.h"
#include "store/memory_team_facts_repository.h"
#include "store/memory_usage_repository.h"
#include "store/memory_usage_rollup_repository.h"
#include "store/test_inventory.h"
#include "tests/support/status_matchers.h"
#include "tests/support/window_lines.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

// store::TestInventory's pods are in namespace team-a with the label team-a.
// Version 1 gives the namespace to team-a; version 2, applied halfway through
// the second hour, knows only team-b and gives it the namespace.
constexpr const char* kExplainMidWindowV1 = R"(version: 1
teams: [{name: team-a}]
namespaces: [{namespace: team-a, team: team-a}]
prices:
  - {model: T4, from: 2025-01-01T00:00:00Z, per_device_hour: "1.00"}
  - {model: A100, from: 2025-01-01T00:00:00Z, per_device_hour: "3.00"}
attribution: {basis: request, idle: share, idle_scope: node}
)";
constexpr const char* kExplainMidWindowV2 = R"(version: 1
teams: [{name: team-b}]
namespaces: [{namespace: team-a, team: team-b}]
prices:
  - {model: T4, from: 2025-01-01T00:00:00Z, per_device_hour: "1.00"}
  - {model: A100, from: 2025-01-01T00:00:00Z, per_device_hour: "3.00"}
attribution: {basis: request, idle: share, idle_scope: node}
)";

// The explanation, the chargeback lines the optimizer computes and the fleet
// summary, all resolving teams through the one directory a fleetcap-api
// process keeps (TeamAttribution).
class ChargebackExplainMidWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const store::ClusterInventory inventory = store::TestInventory();
    ASSERT_THAT(inventory_.Apply(store::ChangesOf(inventory)), IsOk());
    for (const store::Pod& pod : inventory.pods) {
      team_facts_.AddPod({inventory.cluster, pod.uid, pod.namespace_name, pod.team, pod.created, std::nullopt});
    }
    for (const store::Hold& hold : inventory.holds) {
      team_facts_.AddHold(
          {inventory.cluster, hold.pod_uid, hold.milli, hold.from, hold.to, absl::InfinitePast(), std::nullopt});
    }
    team_facts_.Apply(kExplainMidWindowV1, kStart - absl::Hours(24));
    team_facts_.Apply(kExplainMidWindowV2, kSwitch);
    StoreChargebackAsTheOptimizerComputesIt();
  }

  // The lines of [kStart, kEnd) from the stored facts, over the same directory.
  void StoreChargebackAsTheOptimizerComputesIt() {
    auto lines = fleetcap::testing::WindowLines({&facts_, attribution_.directory()}, kStart, kEnd);
    ASSERT_THAT(lines, IsOk());
    stored_ = *lines;
    ASSERT_THAT(chargeback_.ReplaceHours("c1", kStart, kEnd, *lines, {}), IsOk());
  }

  static Scope AuthorisedUnder(int32_t version) {
    Scope scope;
    scope.role = Role::kAdmin;
    auto policy = std::make_shared<ActivePolicy>();
    policy->version = version;
    policy->valid = true;
    scope.policy = std::move(policy);
    return scope;
  }

  static v1::ExplainChargebackRequest RequestFor(const std::string& team, absl::Time hour) {
    v1::ExplainChargebackRequest request;
    request.set_team(team);
    *request.mutable_hour() = ToProtoTimestamp(hour);
    return request;
  }

  const absl::Time kStart = store::TestT0();
  const absl::Time kEnd = store::TestT0() + absl::Hours(3);
  const absl::Time kSwitch = store::TestT0() + absl::Minutes(90);

  store::MemoryLiveInventoryRepository inventory_;
  store::MemoryUsageRepository usage_;
  store::MemoryUsageRollupRepository rollups_{&usage_};
  store::MemoryAttributionFactsRepository facts_{&inventory_, &rollups_};
  store::MemoryTeamFactsRepository team_facts_;
  store::MemoryChargebackRepository chargeback_;
  TeamAttribution attribution_{&team_facts_};
  ChargebackExplainQuery explain_{&facts_, &attribution_, &chargeback_};
  std::vector<store::ChargebackLineRecord> stored_;
};

TEST_F(ChargebackExplainMidWindowTest, EveryStoredTeamHourIsExplainedWithTheTeamsTheChargebackGaveIt) {
  std::set<std::pair<std::string, absl::Time>> team_hours;
  for (const store::ChargebackLineRecord& line : stored_) team_hours.insert({line.team, line.hour});
  // The hour the policy changed in is charged to both teams.
  EXPECT_EQ(team_hours.count({"team-a", kStart + absl::Hours(1)}), 1u);
  EXPECT_EQ(team_hours.count({"team-b", kStart + absl::Hours(1)}), 1u);
  EXPECT_EQ(team_hours.count({"team-a", kStart + absl::Hours(2)}), 0u);
  for (const auto& [team, hour] : team_hours) {
    SCOPED_TRACE(absl::StrCat(team, " ", absl::FormatTime(hour, absl::UTCTimeZone())));
    auto explained = explain_.Run(Scope{}, RequestFor(team, hour));
    ASSERT_THAT(explained, IsOk());
    EXPECT_TRUE(explained->matches_stored()) << explained->note();
  }
}

TEST_F(ChargebackExplainMidWindowTest, ARequestIsExplainedUnderThePolicyVersionItWasAuthorisedUnder) {
  const absl::Time after = kStart + absl::Hours(2);
  // Under version 2, the hour after the change is team-b's, as stored.
  auto under_v2 = explain_.Run(AuthorisedUnder(2), RequestFor("team-b", after));
  ASSERT_THAT(under_v2, IsOk());
  EXPECT_TRUE(under_v2->matches_stored()) << under_v2->note();
  // A request authorised before version 2 was applied does not see it: team-b
  // is no team of version 1, and team-a's hour is explained as version 1
  // charges it, not as stored.
  EXPECT_THAT(explain_.Run(AuthorisedUnder(1), RequestFor("team-b", after)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("team-b")));
  auto team_a_under_v1 = explain_.Run(AuthorisedUnder(1), RequestFor("team-a", after));
  ASSERT_THAT(team_a_under_v1, IsOk());
  EXPECT_FALSE(team_a_under_v1->lines().empty());
  EXPECT_FALSE(team_a_under_v1->matches_stored());
}

TEST_F(ChargebackExplainMidWindowTest, TheFleetSummaryResolvesTheInstantUnderTheRequestsPolicyVersion) {
  SimulatedClock clock(kEnd);
  FleetSummaryQuery summary(&inventory_, &clock, &attribution_);
  v1::GetFleetSummaryRequest request;
  *request.mutable_at() = ToProtoTimestamp(kStart + absl::Hours(2));
  auto under_v2 = summary.Run(AuthorisedUnder(2), request);
  ASSERT_THAT(under_v2, IsOk());
  ASSERT_EQ(under_v2->teams_size(), 1);
  EXPECT_EQ(under_v2->teams(0).team(), "team-b");
  auto under_v1 = summary.Run(AuthorisedUnder(1), request);
  ASSERT_THAT(under_v1, IsOk());
  ASSERT_EQ(under_v1->teams_size(), 1);
  EXPECT_EQ(under_v1->teams(0).team(), "team-a");
}

}  // namespace
}  // namespace fleetcap::api

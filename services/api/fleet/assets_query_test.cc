#include "services/api/fleet/assets_query.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "proto_time.h"
#include "store/memory_capacity_repository.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_control_repositories.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kAssetsT0 = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z
constexpr int64_t kDeviceHour = 3'600'000;

store::Device AssetsDevice(const std::string& id, const std::string& node, const std::string& model) {
  store::Device d;
  d.device_id = id;
  d.node = node;
  d.model = model;
  d.in_service_from = kAssetsT0 - absl::Hours(5);
  return d;
}

store::ChargebackLineRecord IdleLine(const std::string& cluster, const std::string& model, const std::string& team,
                                     int64_t used, int64_t idle_cost) {
  store::ChargebackLineRecord l;
  l.hour = kAssetsT0;
  l.cluster = cluster;
  l.team = team;
  l.model = model;
  l.line_kind = team == "idle" ? "idle" : "workload";
  l.namespace_name = team == "idle" ? "" : team + "-ns";
  l.workload = team == "idle" ? "" : "Job/" + team;
  l.used_milli_seconds = used;
  l.idle_cost_micro = l.total_cost_micro = idle_cost;
  return l;
}

v1::GetAssetsRequest AssetsRequest(const std::string& group_by, int64_t limit = 0) {
  v1::GetAssetsRequest r;
  *r.mutable_start() = ToProtoTimestamp(kAssetsT0);
  *r.mutable_end() = ToProtoTimestamp(kAssetsT0 + absl::Hours(1));
  r.set_group_by(group_by);
  r.set_limit(limit);
  return r;
}

class AssetsQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // c1: n1 two A100 (one held whole), n2 one A100 (held a quarter), n3 a
    // T4 nobody held. c2: m1 one A100 held half.
    devices_.AddDevice("c1", AssetsDevice("g0", "n1", "A100"));
    devices_.AddDevice("c1", AssetsDevice("g1", "n1", "A100"));
    devices_.AddDevice("c1", AssetsDevice("g2", "n2", "A100"));
    devices_.AddDevice("c1", AssetsDevice("t0", "n3", "T4"));
    devices_.AddDevice("c2", AssetsDevice("g0", "m1", "A100"));
    devices_.AddHold("c1", {"p1", "g0", 1000, kAssetsT0 - absl::Hours(1), std::nullopt});
    devices_.AddHold("c1", {"p2", "g2", 250, kAssetsT0, std::nullopt});
    devices_.AddHold("c2", {"p3", "g0", 500, kAssetsT0, std::nullopt});
    // The chargeback's idle of c1's A100 is 7.00 (kept on an idle line and
    // shared to a team), of c2's A100 1.00; T4 has no line (not computed).
    // Of c1's half a device-hour used, g0 used 3/8 (read all its hour), g2
    // 1/8 (read half its quarter); c2's g0 a quarter (read all its half).
    const store::ChargebackHours c1{
        {IdleLine("c1", "A100", "vision", kDeviceHour / 2, 2'000'000), IdleLine("c1", "A100", "idle", 0, 5'000'000)},
        {},
        {{kAssetsT0, "c1", "A100", "n1", "g0", kDeviceHour, 3 * kDeviceHour / 8, kDeviceHour},
         {kAssetsT0, "c1", "A100", "n2", "g2", kDeviceHour / 4, kDeviceHour / 8, kDeviceHour / 8}}};
    ASSERT_THAT(lines_.ReplaceHours("c1", kAssetsT0, kAssetsT0 + absl::Hours(1), c1), IsOk());
    const store::ChargebackHours c2{
        {IdleLine("c2", "A100", "vision", kDeviceHour / 4, 1'000'000)},
        {},
        {{kAssetsT0, "c2", "A100", "m1", "g0", kDeviceHour / 2, kDeviceHour / 4, kDeviceHour / 2}}};
    ASSERT_THAT(lines_.ReplaceHours("c2", kAssetsT0, kAssetsT0 + absl::Hours(1), c2), IsOk());
  }

  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  store::MemoryChargebackRepository lines_;
  store::MemoryCapacityRepository devices_;
  AssetsQuery query_{&devices_, &lines_, &cache_};
};

TEST_F(AssetsQueryTest, ByModelHasCapacityHeldIdleUsedAndIdleCost) {
  auto assets = query_.Run(Scope{}, AssetsRequest("model"));
  ASSERT_THAT(assets, IsOk());
  EXPECT_EQ(assets->group_by(), "model");
  ASSERT_EQ(assets->rows_size(), 2);
  const v1::AssetRow& a100 = assets->rows(0);  // idles 2.25 device-hours, T4 1
  EXPECT_EQ(a100.model(), "A100");
  EXPECT_EQ(a100.devices(), 4);
  EXPECT_EQ(a100.capacity_milli_seconds(), 4 * kDeviceHour);
  EXPECT_EQ(a100.held_milli_seconds(), kDeviceHour + kDeviceHour / 4 + kDeviceHour / 2);
  EXPECT_EQ(a100.idle_milli_seconds(), 4 * kDeviceHour - a100.held_milli_seconds());
  EXPECT_EQ(a100.used_milli_seconds(), kDeviceHour / 2 + kDeviceHour / 4);
  EXPECT_EQ(a100.idle_cost_micro(), 8'000'000);
  const v1::AssetRow& t4 = assets->rows(1);
  EXPECT_EQ(t4.model(), "T4");
  EXPECT_EQ(t4.idle_milli_seconds(), kDeviceHour);
  // No chargeback line: unknown, not 0.
  EXPECT_FALSE(t4.has_used_milli_seconds());
  EXPECT_FALSE(t4.has_idle_cost_micro());
  EXPECT_EQ(assets->groups(), 2);
  EXPECT_EQ(assets->totals().capacity_milli_seconds(), 5 * kDeviceHour);
  EXPECT_EQ(assets->totals().idle_milli_seconds(), a100.idle_milli_seconds() + kDeviceHour);
  EXPECT_FALSE(assets->totals().has_idle_cost_micro());
  EXPECT_EQ(assets->currency(), "USD");
}

TEST_F(AssetsQueryTest, ByClusterSumsTheClustersModels) {
  auto assets = query_.Run(Scope{}, AssetsRequest("CLUSTER"));
  ASSERT_THAT(assets, IsOk());
  EXPECT_EQ(assets->group_by(), "cluster");
  ASSERT_EQ(assets->rows_size(), 2);
  EXPECT_EQ(assets->rows(0).cluster(), "c1");
  EXPECT_EQ(assets->rows(0).model(), "");
  EXPECT_EQ(assets->rows(0).capacity_milli_seconds(), 4 * kDeviceHour);
  EXPECT_EQ(assets->rows(0).idle_cost_micro(), 7'000'000);
  EXPECT_EQ(assets->rows(1).cluster(), "c2");
  EXPECT_EQ(assets->rows(1).idle_cost_micro(), 1'000'000);
}

// Nodes by idle, largest first; the model and cluster's idle cost spread
// over its nodes by idle time, adding up; the totals over every node.
TEST_F(AssetsQueryTest, ByNodeSpreadsIdleCostByIdleTimeAndOrdersByIdle) {
  auto assets = query_.Run(Scope{}, AssetsRequest("node"));
  ASSERT_THAT(assets, IsOk());
  ASSERT_EQ(assets->rows_size(), 4);
  EXPECT_EQ(assets->rows(0).node(), "n1");  // 1 idle device-hour; n3's T4 ties and sorts after by model
  EXPECT_EQ(assets->rows(1).node(), "n3");
  EXPECT_EQ(assets->rows(2).node(), "n2");  // 0.75
  EXPECT_EQ(assets->rows(3).node(), "m1");  // 0.5
  // c1's A100 idles 1 + 0.75 device-hours: 7.00 as 4.00 and 3.00.
  EXPECT_EQ(assets->rows(0).idle_cost_micro(), 4'000'000);
  EXPECT_EQ(assets->rows(2).idle_cost_micro(), 3'000'000);
  EXPECT_EQ(assets->rows(3).idle_cost_micro(), 1'000'000);
  EXPECT_FALSE(assets->rows(1).has_idle_cost_micro());
  // Used and observed: what the holds on each node's devices came to; n3's
  // T4 is not computed (unknown), so neither are the totals'.
  EXPECT_EQ(assets->rows(0).used_milli_seconds(), 3 * kDeviceHour / 8);
  EXPECT_EQ(assets->rows(0).observed_milli_seconds(), kDeviceHour);
  EXPECT_EQ(assets->rows(2).used_milli_seconds(), kDeviceHour / 8);
  EXPECT_EQ(assets->rows(2).observed_milli_seconds(), kDeviceHour / 8);
  EXPECT_EQ(assets->rows(3).used_milli_seconds(), kDeviceHour / 4);
  EXPECT_FALSE(assets->rows(1).has_used_milli_seconds());
  EXPECT_FALSE(assets->rows(1).has_observed_milli_seconds());
  EXPECT_FALSE(assets->totals().has_used_milli_seconds());
}

// A device's used time is what the holds on it used; one nobody held, of a
// model and cluster computed, used nothing (0, known). The nodes' and the
// devices' add up to their model's.
TEST_F(AssetsQueryTest, ByDeviceUsedIsWhatItsHoldsUsedAndAddsUpToTheModels) {
  v1::GetAssetsRequest a100 = AssetsRequest("device");
  a100.set_model("A100");
  auto devices = query_.Run(Scope{}, a100);
  ASSERT_THAT(devices, IsOk());
  std::map<std::pair<std::string, std::string>, const v1::AssetRow*> by_device;
  for (const v1::AssetRow& row : devices->rows()) by_device[{row.cluster(), row.device()}] = &row;
  ASSERT_EQ(by_device.size(), 4u);
  EXPECT_EQ(by_device.at({"c1", "g0"})->used_milli_seconds(), 3 * kDeviceHour / 8);
  ASSERT_TRUE(by_device.at({"c1", "g1"})->has_used_milli_seconds());
  EXPECT_EQ(by_device.at({"c1", "g1"})->used_milli_seconds(), 0);
  EXPECT_EQ(by_device.at({"c1", "g2"})->used_milli_seconds(), kDeviceHour / 8);
  EXPECT_EQ(by_device.at({"c2", "g0"})->used_milli_seconds(), kDeviceHour / 4);
  a100.set_group_by("model");
  auto model = query_.Run(Scope{}, a100);
  ASSERT_THAT(model, IsOk());
  EXPECT_EQ(devices->totals().used_milli_seconds(), model->totals().used_milli_seconds());
  EXPECT_EQ(devices->totals().observed_milli_seconds(), kDeviceHour + kDeviceHour / 8 + kDeviceHour / 2);
}

// A page of the rows, the totals and the count still over all of them; a
// node filter keeps that node's share of its model and cluster's idle cost.
TEST_F(AssetsQueryTest, ALimitCutsTheRowsButNotTheTotalsAndANodeKeepsItsShare) {
  auto page = query_.Run(Scope{}, AssetsRequest("device", 2));
  ASSERT_THAT(page, IsOk());
  EXPECT_EQ(page->rows_size(), 2);
  EXPECT_EQ(page->groups(), 5);
  EXPECT_EQ(page->totals().capacity_milli_seconds(), 5 * kDeviceHour);
  v1::GetAssetsRequest n2 = AssetsRequest("device");
  n2.set_node("n2");
  auto one = query_.Run(Scope{}, n2);
  ASSERT_THAT(one, IsOk());
  ASSERT_EQ(one->rows_size(), 1);
  EXPECT_EQ(one->rows(0).device(), "g2");
  EXPECT_EQ(one->rows(0).idle_cost_micro(), 3'000'000);
  EXPECT_EQ(one->totals().idle_cost_micro(), 3'000'000);
}

TEST_F(AssetsQueryTest, BadParametersAreRefusedNamingThem) {
  auto bad = [&](v1::GetAssetsRequest r, const char* field) {
    EXPECT_THAT(query_.Run(Scope{}, r), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(field))) << field;
  };
  bad(AssetsRequest("rack"), "group_by");
  bad(AssetsRequest("model", -1), "limit");
  bad(AssetsRequest("model", 1'000'000'000'000), "limit");
  v1::GetAssetsRequest r = AssetsRequest("model");
  *r.mutable_end() = ToProtoTimestamp(kAssetsT0 + absl::Hours(10'000));
  bad(r, "end");
  r = AssetsRequest("model");
  *r.mutable_start() = ToProtoTimestamp(kAssetsT0 + absl::Minutes(1));
  bad(r, "start");
  r = AssetsRequest("model");
  r.clear_end();
  bad(r, "end");
  r = AssetsRequest("model");
  r.set_node(std::string(254, 'n'));
  bad(r, "node");
  EXPECT_THAT(query_.Run(Scope{}, AssetsRequest("model", 1'000)), IsOk());
}

TEST_F(AssetsQueryTest, ATeamTokenIsRefused) {
  Scope team;
  team.role = Role::kTeam;
  team.team = "vision";
  team.teams = {"vision"};
  EXPECT_THAT(query_.Run(team, AssetsRequest("model")), StatusIs(absl::StatusCode::kPermissionDenied));
}

}  // namespace
}  // namespace fleetcap::api

// FleetService.GetAssets and ListDeviceHolds over GET /v1/fleet/assets and
// /v1/fleet/assets/holds against the real fleetcap-api on PostgreSQL, over
// the chargeback lines of tests/support/served_chargeback.h and devices,
// pods and holds written here: every figure equals an independent
// computation from the stored intervals of tests/support/served_assets.h (each device interval and each hold
// clipped by hand), the idle cost the chargeback's lines as written, a
// node's share of it within one micro-unit of its exact proportion and the
// shares adding up; the pods of a device are its holds as stored.

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "fleetcap/v1/fleet.pb.h"
#include "proto_time.h"
#include "tests/support/build_paths.h"
#include "tests/support/proto_json.h"
#include "tests/support/served_assets.h"
#include "tests/support/served_chargeback.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_inventory.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

// (model, cluster, node, device) -> (devices, capacity, held, idle)
using AssetKey = std::tuple<std::string, std::string, std::string, std::string>;
using AssetFigures = std::tuple<int64_t, int64_t, int64_t, int64_t>;

constexpr char kAssetWindow[] = "start=2026-01-31T20:00:00Z&end=2026-02-01T04:00:00Z";

absl::Time At(const char* text) { return *ParseRfc3339("at", text); }

class FleetAssetsApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeAssets(fleetcap::testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
  }
  static void TearDownTestSuite() { served_.reset(); }

  static v1::Assets Assets(const std::string& query) {
    auto http = served_->Get("/v1/fleet/assets?" + query);
    EXPECT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 200) << http->body;
    return testing::ParseJson<v1::Assets>(http->body);
  }

  // Per group of `level`, from the stored rows: each device interval
  // clipped to the window, each hold of its device clipped to the interval.
  static std::map<AssetKey, AssetFigures> Expected(const std::string& level, absl::Time start, absl::Time end) {
    auto conn = served_->db->Connect();
    const auto devices = testing::StoredDevices(*conn);
    const auto holds = testing::StoredHolds(*conn);
    std::map<AssetKey, AssetFigures> out;
    std::map<AssetKey, std::set<std::pair<std::string, std::string>>> distinct;
    for (const auto& d : devices) {
      const absl::Time from = std::max(d.in_service_from, start);
      const absl::Time to = std::min(d.in_service_to.value_or(absl::InfiniteFuture()), end);
      if (from >= to) continue;
      const int64_t capacity = absl::ToInt64Milliseconds(to - from);
      int64_t held = 0;
      for (const auto& h : holds) {
        if (h.cluster != d.cluster || h.device_id != d.device_id) continue;
        const absl::Time f = std::max(h.held_from, from);
        const absl::Time t = std::min(h.held_to.value_or(absl::InfiniteFuture()), to);
        if (f < t) held += h.milli * absl::ToInt64Milliseconds(t - f) / 1000;
      }
      const AssetKey key{level == "cluster" ? "" : d.model, level == "model" ? "" : d.cluster,
                         level == "node" || level == "device" ? d.node : "", level == "device" ? d.device_id : ""};
      auto& [count, cap, h, idle] = out[key];
      cap += capacity;
      h += held;
      idle += std::max<int64_t>(0, capacity - held);
      distinct[key].insert({d.cluster, d.device_id});
      count = static_cast<int64_t>(distinct[key].size());
    }
    return out;
  }

  static std::map<AssetKey, AssetFigures> Got(const v1::Assets& assets) {
    std::map<AssetKey, AssetFigures> out;
    for (const auto& r : assets.rows()) {
      out[{r.model(), r.cluster(), r.node(), r.device()}] = {r.devices(), r.capacity_milli_seconds(),
                                                             r.held_milli_seconds(), r.idle_milli_seconds()};
    }
    return out;
  }

  // The idle cost of the chargeback's lines as written, per (model, cluster), over the window.
  static std::map<std::pair<std::string, std::string>, int64_t> IdleCost(absl::Time start, absl::Time end) {
    std::map<std::pair<std::string, std::string>, int64_t> out;
    for (const auto& l : served_->lines) {
      if (l.model.empty() || l.hour < start || l.hour >= end) continue;
      out[{l.model, l.cluster}] += l.idle_cost_micro;
    }
    return out;
  }

  static std::unique_ptr<testing::ServedChargeback> served_;
};
std::unique_ptr<testing::ServedChargeback> FleetAssetsApiTest::served_;

const absl::Time kAssetStart = testing::kChargebackStart;
const absl::Time kAssetEnd = testing::kChargebackEnd;

TEST_F(FleetAssetsApiTest, EveryLevelEqualsTheStoredIntervalsClippedByHand) {
  for (const std::string level : {"model", "cluster", "node", "device"}) {
    const v1::Assets assets = Assets(absl::StrCat(kAssetWindow, "&group_by=", level));
    EXPECT_EQ(assets.group_by(), level);
    const auto expected = Expected(level, kAssetStart, kAssetEnd);
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(Got(assets), expected) << level;
    EXPECT_EQ(assets.groups(), static_cast<int64_t>(expected.size()));
    int64_t capacity = 0, held = 0, idle = 0;
    for (const auto& [key, figures] : expected) {
      capacity += std::get<1>(figures);
      held += std::get<2>(figures);
      idle += std::get<3>(figures);
    }
    EXPECT_EQ(assets.totals().capacity_milli_seconds(), capacity) << level;
    EXPECT_EQ(assets.totals().held_milli_seconds(), held) << level;
    EXPECT_EQ(assets.totals().idle_milli_seconds(), idle) << level;
    // Largest idle first.
    for (int i = 1; i < assets.rows_size(); ++i) {
      EXPECT_GE(assets.rows(i - 1).idle_milli_seconds(), assets.rows(i).idle_milli_seconds()) << level;
    }
  }
}

// Per model the idle cost is the chargeback lines' idle_cost_micro as
// written (the idle line's kept idle and every team's share), in the
// policy's currency; used is the chargeback report's used device time.
TEST_F(FleetAssetsApiTest, IdleCostPerModelIsTheChargebacksIdle) {
  const v1::Assets assets = Assets(absl::StrCat(kAssetWindow, "&group_by=model"));
  EXPECT_EQ(assets.currency(), "EUR");
  std::map<std::string, int64_t> want;
  for (const auto& [key, cost] : IdleCost(kAssetStart, kAssetEnd)) want[key.first] += cost;
  std::map<std::string, int64_t> used;
  for (const auto& l : served_->lines) {
    if (!l.model.empty()) used[l.model] += l.used_milli_seconds;
  }
  ASSERT_EQ(assets.rows_size(), 3);
  int64_t total = 0;
  for (const auto& row : assets.rows()) {
    ASSERT_TRUE(row.has_idle_cost_micro()) << row.model();
    EXPECT_EQ(row.idle_cost_micro(), want.at(row.model())) << row.model();
    EXPECT_EQ(row.used_milli_seconds(), used.at(row.model())) << row.model();
    total += row.idle_cost_micro();
  }
  EXPECT_GT(total, 0);
  EXPECT_EQ(assets.totals().idle_cost_micro(), total);
}

// A node's or device's idle cost is its model and cluster's spread by idle
// device time: within one micro-unit of the exact proportion, adding up to
// the model and cluster's to the micro-unit; used is what the holds on its
// devices used where the chargeback computed its model and cluster, 0 if
// none was held, unknown elsewhere.
TEST_F(FleetAssetsApiTest, NodesAndDevicesShareTheirModelsIdleCostByIdleTime) {
  const auto costs = IdleCost(kAssetStart, kAssetEnd);
  for (const std::string level : {"node", "device"}) {
    std::map<std::string, int64_t> used;  // by node or device
    for (const auto& d : testing::AssetDevicesHeld()) {
      if (d.hour >= kAssetStart && d.hour < kAssetEnd)
        used[level == "node" ? d.node : d.device_id] += d.used_milli_seconds;
    }
    const v1::Assets assets = Assets(absl::StrCat(kAssetWindow, "&group_by=", level));
    std::map<std::pair<std::string, std::string>, std::pair<int64_t, int64_t>> sums;  // (idle time, cost)
    for (const auto& row : assets.rows()) {
      if (!costs.count({row.model(), row.cluster()})) {
        EXPECT_FALSE(row.has_used_milli_seconds()) << row.node();
        EXPECT_FALSE(row.has_idle_cost_micro()) << row.node();
        continue;
      }
      ASSERT_TRUE(row.has_used_milli_seconds()) << row.node();
      const auto held = row.cluster() == "c1" ? used.find(level == "node" ? row.node() : row.device()) : used.end();
      EXPECT_EQ(row.used_milli_seconds(), held == used.end() ? 0 : held->second) << level << " " << row.node();
      sums[{row.model(), row.cluster()}].first += row.idle_milli_seconds();
      sums[{row.model(), row.cluster()}].second += row.idle_cost_micro();
    }
    ASSERT_FALSE(sums.empty());
    for (const auto& row : assets.rows()) {
      const auto cost = costs.find({row.model(), row.cluster()});
      if (cost == costs.end()) continue;
      const auto& [idle, spread] = sums.at({row.model(), row.cluster()});
      EXPECT_EQ(spread, cost->second) << level << " " << row.model() << "/" << row.cluster();
      // The test's costs and idle times are small enough for their product to fit.
      const int64_t floor = cost->second * row.idle_milli_seconds() / idle;
      EXPECT_TRUE(row.idle_cost_micro() == floor || row.idle_cost_micro() == floor + 1)
          << level << " " << row.node() << " " << row.device() << ": " << row.idle_cost_micro();
    }
  }
}

TEST_F(FleetAssetsApiTest, FiltersAndALimitKeepTheTotalsOfEveryMatchingGroup) {
  const v1::Assets page = Assets(absl::StrCat(kAssetWindow, "&group_by=device&limit=2"));
  EXPECT_EQ(page.rows_size(), 2);
  const auto all = Expected("device", kAssetStart, kAssetEnd);
  EXPECT_EQ(page.groups(), static_cast<int64_t>(all.size()));
  int64_t idle = 0;
  for (const auto& [key, figures] : all) idle += std::get<3>(figures);
  EXPECT_EQ(page.totals().idle_milli_seconds(), idle);
  const v1::Assets n1 = Assets(absl::StrCat(kAssetWindow, "&group_by=device&cluster=c1&node=n1"));
  std::map<AssetKey, AssetFigures> want;
  for (const auto& [key, figures] : all) {
    if (std::get<1>(key) == "c1" && std::get<2>(key) == "n1") want[key] = figures;
  }
  EXPECT_EQ(Got(n1), want);
}

// The pods that held c1's g0: its holds as stored, clipped to the window,
// each pod's team from its namespace under the policy.
TEST_F(FleetAssetsApiTest, ADevicesPodsAreItsHoldsClippedToTheWindow) {
  auto http = served_->Get(absl::StrCat("/v1/fleet/assets/holds?cluster=c1&device=g0&", kAssetWindow));
  ASSERT_THAT(http, IsOk());
  ASSERT_EQ(http->status, 200) << http->body;
  const auto holds = testing::ParseJson<v1::DeviceHolds>(http->body);
  EXPECT_FALSE(holds.truncated());
  ASSERT_EQ(holds.holds_size(), 2);
  const auto& train = holds.holds(0);
  EXPECT_EQ(train.pod(), "train-0");
  EXPECT_EQ(train.namespace_(), "vision-ns");
  EXPECT_EQ(train.workload(), "Job/train-0-job");
  EXPECT_EQ(train.team(), "vision");
  EXPECT_EQ(train.milli(), 500);
  EXPECT_EQ(FromProtoTimestamp(train.held_from()), kAssetStart);
  EXPECT_EQ(FromProtoTimestamp(train.held_to()), At("2026-01-31T23:30:00Z"));
  EXPECT_EQ(train.held_seconds(), 3 * 3600 + 1800);
  EXPECT_EQ(train.held_milli_seconds(), 500 * (3 * 3600 + 1800));
  const auto& rank = holds.holds(1);
  EXPECT_EQ(rank.pod(), "rank-0");
  EXPECT_EQ(rank.team(), "ads");
  EXPECT_EQ(FromProtoTimestamp(rank.held_to()), kAssetEnd);
  // The device's held time is the sum of its pods'.
  const auto device = Expected("device", kAssetStart, kAssetEnd).at({"A100", "c1", "n1", "g0"});
  EXPECT_EQ(std::get<2>(device), train.held_milli_seconds() + rank.held_milli_seconds());
}

TEST_F(FleetAssetsApiTest, ATeamTokenIsRefusedWithAMessage) {
  for (const std::string& target : {std::string("/v1/fleet/assets?") + kAssetWindow,
                                    absl::StrCat("/v1/fleet/assets/holds?cluster=c1&device=g0&", kAssetWindow)}) {
    auto denied = served_->Get(target, "team:vision");
    ASSERT_THAT(denied, IsOk());
    EXPECT_EQ(denied->status, 403) << target << ": " << denied->body;
    EXPECT_FALSE(denied->body.empty());
  }
}

TEST_F(FleetAssetsApiTest, HostileParametersAreRefusedNamingThem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"start=2026-01-31T20:30:00Z&end=2026-02-01T04:00:00Z", "start"},
      {"start=yesterday&end=2026-02-01T04:00:00Z", "start"},
      {"start=2026-01-31T20:00:00Z&end=2027-04-01T00:00:00Z", "end"},
      {"start=2026-01-31T20:00:00Z&end=2026-01-31T20:00:00Z", "end"},
      {"end=2026-02-01T04:00:00Z", "start"},
      {std::string(kAssetWindow) + "&group_by=rack", "group_by"},
      {std::string(kAssetWindow) + "&group_by=model%00", "group_by"},
      {std::string(kAssetWindow) + "&cluster=c1%00", "cluster"},
      {std::string(kAssetWindow) + "&limit=-1", "limit"},
      {std::string(kAssetWindow) + "&limit=1000000000000", "limit"},
      {std::string(kAssetWindow) + "&limit=ten", "limit"},
      {std::string(kAssetWindow) + "&rows=5", "rows"},
  };
  for (const auto& [query, field] : cases) {
    auto http = served_->Get("/v1/fleet/assets?" + query);
    ASSERT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 400) << query << ": " << http->body;
    EXPECT_THAT(http->body, HasSubstr(field)) << query;
  }
  for (const auto& [query, field] : std::vector<std::pair<std::string, std::string>>{
           {std::string(kAssetWindow) + "&device=g0", "cluster"},
           {std::string(kAssetWindow) + "&cluster=c1", "device"},
           {"cluster=c1&device=g0&start=2026-01-31T20:00:00Z&end=2027-04-01T00:00:00Z", "end"},
           {"cluster=c1&device=g0%00&" + std::string(kAssetWindow), "device"}}) {
    auto http = served_->Get("/v1/fleet/assets/holds?" + query);
    ASSERT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 400) << query << ": " << http->body;
    EXPECT_THAT(http->body, HasSubstr(field)) << query;
  }
}

}  // namespace
}  // namespace fleetcap

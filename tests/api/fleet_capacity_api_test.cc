// FleetService.GetCapacitySeries over GET /v1/fleet/capacity against the real
// fleetcap-api on PostgreSQL, over the chargeback lines of
// tests/support/served_chargeback.h and the devices of tests/support/served_assets.h: held and used
// equal the chargeback report for the same window and grouping, capacity a
// direct SQL sum over the devices' service intervals, computed another way.

#include <algorithm>
#include <map>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/time_util.h"
#include "fleetcap/v1/chargeback.pb.h"
#include "fleetcap/v1/fleet.pb.h"
#include "pqxx/pqxx"
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

// (model, cluster, team, bucket start) -> (capacity, held, used)
using Key = std::tuple<std::string, std::string, std::string, int64_t>;
using Figures = std::tuple<int64_t, int64_t, int64_t>;

class FleetCapacityApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The Assets tests' devices (tests/support/served_assets.h): intervals that start and end inside
    // hours, one still in service, one that went and came back, and one before the window.
    auto served = testing::ServeAssets(fleetcap::testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
  }
  static void TearDownTestSuite() { served_.reset(); }

  // Device time per (model, cluster, bucket) straight from the stored
  // intervals: every device interval against every bucket of [start, end).
  static std::map<Key, int64_t> CapacityOfDevices(const std::string& start, const std::string& end,
                                                  absl::Duration width) {
    auto conn = served_->db->Connect();
    const std::vector<testing::StoredDevice> devices = testing::StoredDevices(*conn);
    std::map<Key, int64_t> out;
    for (absl::Time b = *ParseRfc3339("start", start); b < *ParseRfc3339("end", end); b += width) {
      for (const auto& d : devices) {
        const absl::Time to = d.in_service_to.value_or(absl::InfiniteFuture());
        if (d.in_service_from >= b + width || to <= b) continue;
        out[{d.model, d.cluster, "", absl::ToUnixSeconds(b)}] +=
            absl::ToInt64Milliseconds(std::min(to, b + width) - std::max(d.in_service_from, b));
      }
    }
    return out;
  }

  static std::map<Key, Figures> Flatten(const v1::CapacitySeries& series) {
    std::map<Key, Figures> out;
    for (const auto& g : series.groups()) {
      for (const auto& b : g.buckets()) {
        out[{g.model(), g.cluster(), g.team(), b.start().seconds()}] = {b.capacity_milli_seconds(),
                                                                        b.held_milli_seconds(), b.used_milli_seconds()};
      }
    }
    return out;
  }

  // A COLUMNAR answer in Flatten's terms: the buckets on its time axis,
  // leaving out those where the group has nothing (as BUCKETS does).
  static std::map<Key, Figures> FlattenColumns(const v1::CapacitySeries& series) {
    std::map<Key, Figures> out;
    const int64_t start = series.start().seconds();
    const int64_t count = (series.end().seconds() - start) / series.step_seconds();
    for (const auto& g : series.groups()) {
      EXPECT_EQ(g.buckets_size(), 0);
      EXPECT_EQ(g.capacity_milli_seconds_size(), count);
      EXPECT_EQ(g.held_milli_seconds_size(), count);
      EXPECT_EQ(g.used_milli_seconds_size(), count);
      for (int i = 0; i < g.held_milli_seconds_size(); ++i) {
        const Figures figures{g.capacity_milli_seconds(i), g.held_milli_seconds(i), g.used_milli_seconds(i)};
        if (figures == Figures{0, 0, 0}) continue;
        out[{g.model(), g.cluster(), g.team(), start + i * series.step_seconds()}] = figures;
      }
    }
    return out;
  }

  // Held and used per (model, cluster, team, period) of the chargeback
  // report, leaving out what holds nothing (idle and fixed lines).
  static std::map<Key, std::pair<int64_t, int64_t>> Chargeback(const std::string& query) {
    auto http = served_->Get("/v1/chargeback?" + query);
    EXPECT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 200) << http->body;
    const auto report = testing::ParseJson<v1::ChargebackReport>(http->body);
    std::map<Key, std::pair<int64_t, int64_t>> out;
    for (const auto& l : report.lines()) {
      if (l.held_milli_seconds() == 0 && l.used_milli_seconds() == 0) continue;
      auto& sums = out[{l.model(), l.cluster(), l.team(), l.start().seconds()}];
      sums.first += l.held_milli_seconds();
      sums.second += l.used_milli_seconds();
    }
    return out;
  }

  static std::unique_ptr<testing::ServedChargeback> served_;
};
std::unique_ptr<testing::ServedChargeback> FleetCapacityApiTest::served_;

constexpr char kWindow[] = "start=2026-01-31T20:00:00Z&end=2026-02-01T04:00:00Z";

TEST_F(FleetCapacityApiTest, HourlyByModelAndClusterEqualsTheChargebackAndTheDevices) {
  auto http = served_->Get(std::string("/v1/fleet/capacity?") + kWindow + "&resolution=hour&group_by=cluster,model");
  ASSERT_THAT(http, IsOk());
  ASSERT_EQ(http->status, 200) << http->body;
  const auto series = testing::ParseJson<v1::CapacitySeries>(http->body);
  EXPECT_EQ(series.resolution(), v1::HOUR);
  EXPECT_THAT(series.group_by(), ::testing::ElementsAre("model", "cluster"));
  const auto got = Flatten(series);
  const auto held = Chargeback(std::string(kWindow) + "&resolution=hour&group_by=cluster,model");
  const auto capacity = CapacityOfDevices("2026-01-31T20:00:00Z", "2026-02-01T04:00:00Z", absl::Hours(1));
  ASSERT_FALSE(held.empty());
  ASSERT_FALSE(capacity.empty());
  std::map<Key, Figures> expected;
  for (const auto& [key, sums] : held) {
    std::get<1>(expected[key]) = sums.first;
    std::get<2>(expected[key]) = sums.second;
  }
  for (const auto& [key, milli] : capacity) std::get<0>(expected[key]) = milli;
  EXPECT_EQ(got, expected);
  // Groups come ordered by model, then cluster.
  std::vector<std::string> order;
  for (const auto& g : series.groups()) order.push_back(g.model() + "/" + g.cluster());
  EXPECT_THAT(order, ::testing::ElementsAre("A100/c1", "H100/c1", "T4/c2"));
}

TEST_F(FleetCapacityApiTest, DailyWholeFleetEqualsTheDailyChargeback) {
  const std::string window = "start=2026-01-31T00:00:00Z&end=2026-02-02T00:00:00Z";
  auto http = served_->Get("/v1/fleet/capacity?" + window + "&resolution=DAY");
  ASSERT_THAT(http, IsOk());
  ASSERT_EQ(http->status, 200) << http->body;
  const auto got = Flatten(testing::ParseJson<v1::CapacitySeries>(http->body));
  std::map<Key, Figures> expected;
  for (const auto& [key, sums] : Chargeback(window + "&resolution=day")) {
    const Key whole{"", "", "", std::get<3>(key)};
    std::get<1>(expected[whole]) += sums.first;
    std::get<2>(expected[whole]) += sums.second;
  }
  for (const auto& [key, milli] : CapacityOfDevices("2026-01-31T00:00:00Z", "2026-02-02T00:00:00Z", absl::Hours(24))) {
    std::get<0>(expected[{"", "", "", std::get<3>(key)}]) += milli;
  }
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_EQ(got, expected);
}

TEST_F(FleetCapacityApiTest, ATeamReadsItsSubtreeByTeamAndNothingElse) {
  auto own = served_->Get(std::string("/v1/fleet/capacity?") + kWindow + "&group_by=team", "team:vision");
  ASSERT_THAT(own, IsOk());
  ASSERT_EQ(own->status, 200) << own->body;
  const auto series = testing::ParseJson<v1::CapacitySeries>(own->body);
  std::map<Key, Figures> expected;
  for (const auto& [key, sums] : Chargeback(std::string(kWindow) + "&resolution=hour&group_by=team&team=vision")) {
    std::get<1>(expected[key]) += sums.first;
    std::get<2>(expected[key]) += sums.second;
  }
  EXPECT_EQ(Flatten(series), expected);
  for (const auto& g : series.groups()) EXPECT_THAT(g.team(), ::testing::AnyOf("vision", "vision-detect"));
  // The fleet by model, another team, its parent: refused, by HTTP status and message.
  for (const std::string& target : {std::string("&group_by=model"), std::string("&group_by=team&team=ads"),
                                    std::string("&team=research"), std::string("")}) {
    auto denied = served_->Get(std::string("/v1/fleet/capacity?") + kWindow + target, "team:vision");
    ASSERT_THAT(denied, IsOk());
    EXPECT_EQ(denied->status, 403) << target << ": " << denied->body;
  }
  // Schedulers get no capacity at all.
  auto scheduler = served_->Get(std::string("/v1/fleet/capacity?") + kWindow, "scheduler");
  ASSERT_THAT(scheduler, IsOk());
  EXPECT_EQ(scheduler->status, 403);
}

TEST_F(FleetCapacityApiTest, BothLayoutsOfTheSameQueryCarryTheSameNumbers) {
  const std::string daily = "start=2026-01-31T00:00:00Z&end=2026-02-02T00:00:00Z&resolution=day";
  const std::vector<std::pair<std::string, std::string>> queries = {
      {std::string(kWindow) + "&resolution=hour&group_by=cluster,model", "planner"},
      {std::string(kWindow) + "&resolution=hour&group_by=model", "planner"},
      {std::string(kWindow) + "&resolution=hour", "planner"},
      {daily + "&group_by=cluster,model", "planner"},
      {daily + "&group_by=team", "planner"},
      {std::string(kWindow) + "&group_by=team", "team:vision"},
  };
  for (const auto& [query, role] : queries) {
    auto buckets = served_->Get("/v1/fleet/capacity?" + query, role);
    auto columns = served_->Get("/v1/fleet/capacity?" + query + "&layout=columnar", role);
    ASSERT_THAT(buckets, IsOk());
    ASSERT_THAT(columns, IsOk());
    ASSERT_EQ(buckets->status, 200) << query << ": " << buckets->body;
    ASSERT_EQ(columns->status, 200) << query << ": " << columns->body;
    const auto old_shape = testing::ParseJson<v1::CapacitySeries>(buckets->body);
    const auto columnar = testing::ParseJson<v1::CapacitySeries>(columns->body);
    EXPECT_EQ(old_shape.layout(), v1::BUCKETS) << query;
    EXPECT_EQ(columnar.layout(), v1::COLUMNAR) << query;
    EXPECT_EQ(columnar.step_seconds(), query.find("resolution=day") != std::string::npos ? 86'400 : 3'600);
    const auto expected = Flatten(old_shape);
    ASSERT_FALSE(expected.empty()) << query;
    EXPECT_EQ(FlattenColumns(columnar), expected) << query;
    // The same groups, in the same order.
    ASSERT_EQ(columnar.groups_size(), old_shape.groups_size()) << query;
    for (int g = 0; g < columnar.groups_size(); ++g) {
      EXPECT_EQ(columnar.groups(g).model(), old_shape.groups(g).model());
      EXPECT_EQ(columnar.groups(g).cluster(), old_shape.groups(g).cluster());
      EXPECT_EQ(columnar.groups(g).team(), old_shape.groups(g).team());
    }
  }
}

TEST_F(FleetCapacityApiTest, BadParametersAreRefusedNamingThem) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"end=2026-02-01T04:00:00Z", "start"},
      {std::string(kWindow) + "&resolution=week", "resolution"},
      {std::string(kWindow) + "&resolution=minute", "resolution"},
      {std::string(kWindow) + "&group_by=namespace", "group_by"},
      {std::string(kWindow) + "&resolution=day", "start"},
      {"start=2026-01-31T20:30:00Z&end=2026-02-01T04:00:00Z", "start"},
      {"start=2024-01-01T00:00:00Z&end=2026-02-01T00:00:00Z", "end"},
      {std::string(kWindow) + "&colour=red", "colour"},
      {std::string(kWindow) + "&layout=rows", "layout"},
  };
  for (const auto& [query, field] : cases) {
    auto http = served_->Get("/v1/fleet/capacity?" + query);
    ASSERT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 400) << query << ": " << http->body;
    EXPECT_THAT(http->body, HasSubstr(field)) << query;
  }
}

}  // namespace
}  // namespace fleetcap

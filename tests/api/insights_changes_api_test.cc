// InsightsService.GetSpendChange and GET /v1/insights/changes against the
// real fleetcap-api on PostgreSQL, over the served bill
// (tests/support/served_chargeback.h) and eight more hours written here in
// which workloads start, end, grow and move between models: the drivers are
// compared with a computation here from the lines as written, the Shapley
// value taken over the six orders of changing held time, shares and prices
// one by one (the engine uses its closed form); the sum; a team token's scope.

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/pg_pool.h"
#include "fleetcap/v1/insights.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "nlohmann/json.hpp"
#include "proto_time.h"
#include "store/pg_chargeback_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/served_chargeback.h"
#include "tests/support/status_matchers.h"

// Its own namespace: the unity build puts it beside the chargeback API tests.
namespace fleetcap::insights_changes_test {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using Line = store::ChargebackLineRecord;

// The eight hours written here: workloads change at the fourth.
const absl::Time kMoreStart = absl::FromUnixSeconds(1'769'990'400);  // 2026-02-02T00:00:00Z

Line Make(absl::Time hour, const std::string& cluster, const std::string& team, const std::string& ns,
          const std::string& workload, const std::string& model, const std::string& kind, int64_t held, int64_t direct,
          int64_t idle, int64_t shared) {
  Line l;
  l.hour = hour;
  l.cluster = cluster;
  l.team = team;
  l.namespace_name = ns;
  l.workload = workload;
  l.model = model;
  l.line_kind = kind;
  l.held_milli_seconds = l.observed_milli_seconds = held;
  l.direct_cost_micro = direct;
  l.idle_cost_micro = idle;
  l.shared_cost_micro = shared;
  l.total_cost_micro = direct + idle + shared;
  return l;
}

// mix moves from a T4 and an A100 to two A100s; grow doubles its time; old
// ends after three hours; new starts at the sixth; idle and fixed drift.
std::map<std::string, std::vector<Line>> MoreHours() {
  std::map<std::string, std::vector<Line>> by_cluster;
  for (int h = 0; h < 8; ++h) {
    const absl::Time t = kMoreStart + absl::Hours(h);
    auto& c3 = by_cluster["c3"];
    if (h < 4) {
      c3.push_back(Make(t, "c3", "vision", "vision-ns", "Job/mix", "T4", "workload", 3'600'000, 1'000'000, 0, 0));
      c3.push_back(Make(t, "c3", "vision", "vision-ns", "Job/mix", "A100", "workload", 3'600'000, 7'000'000, 0, 0));
    } else {
      c3.push_back(
          Make(t, "c3", "vision", "vision-ns", "Job/mix", "A100", "workload", 7'200'000, 14'000'000 + h * 3, 0, 0));
    }
    const int64_t grow = h < 4 ? 1'800'000 : 3'600'000;
    c3.push_back(Make(t, "c3", "vision", "vision-ns", "Job/grow", "A100", "workload", grow, grow * 35 / 18 + h,
                      100'000 + h * 11, 0));
    if (h < 3) {
      c3.push_back(
          Make(t, "c3", "vision-detect", "detect-ns", "Job/old", "H100", "workload", 3'600'000, 9'000'000, 0, 0));
    }
    if (h >= 5) {
      c3.push_back(Make(t, "c3", "ads", "ads-ns", "Job/new", "A100", "workload", 1'000'000, 1'944'444, 0, 12'345));
    }
    c3.push_back(Make(t, "c3", "idle", "", "", "A100", "idle", 0, 0, 500'000 + 1000 * h, 0));
    by_cluster[""].push_back(Make(t, "", "vision", "", "", "", "fixed", 0, 0, 0, 100'000 + h));
  }
  return by_cluster;
}

// ---- The drivers worked out here.

using WorkloadKey = std::tuple<std::string, std::string, std::string>;
using CellKey = std::pair<std::string, std::string>;

struct Side {
  std::map<CellKey, std::pair<long double, long double>> cells;  // held, direct
  int64_t idle = 0, shared = 0, total = 0;
  bool present = false;
};

struct Expected {
  int64_t previous = 0, current = 0;
  std::map<std::string, long double> drivers;
};

// Held time x share x price of each cell, each factor from the window `mask`
// says (bit 0 held, 1 share, 2 price), and the rules for time in one window only.
long double Direct(const Side& b, const Side& a, int mask) {
  long double held[2] = {0, 0};
  for (const auto& [k, c] : b.cells) held[0] += c.first;
  for (const auto& [k, c] : a.cells) held[1] += c.first;
  std::set<CellKey> cells;
  for (const auto& [k, c] : b.cells) cells.insert(k);
  for (const auto& [k, c] : a.cells) cells.insert(k);
  long double sum = 0;
  for (const CellKey& k : cells) {
    const auto cb = b.cells.count(k) ? b.cells.at(k) : std::make_pair(0.0L, 0.0L);
    const auto ca = a.cells.count(k) ? a.cells.at(k) : std::make_pair(0.0L, 0.0L);
    if (cb.first == 0 && ca.first == 0) continue;
    const long double p1 = ca.first > 0 ? ca.second / ca.first : cb.second / cb.first;
    const long double p0 = cb.first > 0 ? cb.second / cb.first : p1;
    const long double s1 = held[1] > 0 ? ca.first / held[1] : cb.first / held[0];
    const long double s0 = held[0] > 0 ? cb.first / held[0] : s1;
    sum += ((mask & 1) ? held[1] : held[0]) * ((mask & 2) ? s1 : s0) * ((mask & 4) ? p1 : p0);
  }
  return sum;
}

Expected WorkOut(const std::vector<Line>& lines, absl::Time previous_start, absl::Time start, absl::Time end,
                 const std::function<bool(const Line&)>& selected) {
  Expected e;
  for (const char* d : {"started", "ended", "held_time", "model_mix", "price", "idle_share", "shared_and_fixed"}) {
    e.drivers[d] = 0;
  }
  std::map<WorkloadKey, Side> sides[2];
  for (const Line& l : lines) {
    if (l.hour < previous_start || l.hour >= end || !selected(l)) continue;
    const int w = l.hour < start ? 0 : 1;
    (w == 0 ? e.previous : e.current) += l.total_cost_micro;
    const int sign = w == 0 ? -1 : 1;
    if (l.line_kind == "idle") e.drivers["idle_share"] += sign * l.total_cost_micro;
    if (l.line_kind == "shared" || l.line_kind == "fixed") e.drivers["shared_and_fixed"] += sign * l.total_cost_micro;
    if (l.line_kind != "workload") continue;
    Side& s = sides[w][{l.team, l.namespace_name, l.workload}];
    auto& cell = s.cells[{l.model, l.cluster}];
    cell.first += l.held_milli_seconds;
    cell.second += l.direct_cost_micro;
    s.idle += l.idle_cost_micro;
    s.shared += l.shared_cost_micro;
    s.total += l.total_cost_micro;
    s.present = true;
  }
  std::set<WorkloadKey> keys;
  for (const auto& side : sides) {
    for (const auto& [k, s] : side) keys.insert(k);
  }
  for (const WorkloadKey& k : keys) {
    const Side b = sides[0].count(k) ? sides[0].at(k) : Side{};
    const Side a = sides[1].count(k) ? sides[1].at(k) : Side{};
    if (!b.present) {
      e.drivers["started"] += a.total;
    } else if (!a.present) {
      e.drivers["ended"] -= b.total;
    } else {
      e.drivers["idle_share"] += a.idle - b.idle;
      e.drivers["shared_and_fixed"] += a.shared - b.shared;
      // Each factor's change in each of the six orders, averaged.
      const char* names[] = {"held_time", "model_mix", "price"};
      std::array<int, 3> order = {0, 1, 2};
      do {
        int mask = 0;
        for (int f : order) {
          e.drivers[names[f]] += (Direct(b, a, mask | (1 << f)) - Direct(b, a, mask)) / 6;
          mask |= 1 << f;
        }
      } while (std::next_permutation(order.begin(), order.end()));
    }
  }
  return e;
}

class InsightsChangesApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeChargeback(fleetcap::testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
    auto pool = PgPool::Open(served_->db->uri(), 1);
    ASSERT_THAT(pool, IsOk());
    store::PgChargebackRepository repo(pool->get());
    for (const auto& [cluster, lines] : MoreHours()) {
      ASSERT_THAT(repo.ReplaceHours(cluster, kMoreStart, kMoreStart + absl::Hours(8), lines, {}), IsOk());
      served_->lines.insert(served_->lines.end(), lines.begin(), lines.end());
    }
  }
  static void TearDownTestSuite() { served_.reset(); }

  static v1::GetSpendChangeRequest Request(absl::Time start, absl::Time end, const std::string& team = "",
                                           const std::string& ns = "", int top = 0) {
    v1::GetSpendChangeRequest r;
    *r.mutable_start() = ToProtoTimestamp(start);
    *r.mutable_end() = ToProtoTimestamp(end);
    r.set_team(team);
    r.set_namespace_(ns);
    r.set_top(top);
    return r;
  }

  static grpc::Status Get(const v1::GetSpendChangeRequest& request, v1::SpendChangeReport* report,
                          const std::string& role = "planner") {
    auto stub = v1::InsightsService::NewStub(
        grpc::CreateChannel(served_->api.grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + served_->tokens.at(role));
    return stub->GetSpendChange(&context, request, report);
  }

  // The report agrees with the lines `selected` picks: the costs, each
  // driver (the whole ones exactly, the others within their rounding), the sum.
  static void ExpectAgrees(const v1::GetSpendChangeRequest& request, const std::function<bool(const Line&)>& selected,
                           const std::string& role = "planner") {
    v1::SpendChangeReport report;
    const grpc::Status status = Get(request, &report, role);
    ASSERT_TRUE(status.ok()) << status.error_message();
    const absl::Time start = FromProtoTimestamp(request.start()), end = FromProtoTimestamp(request.end());
    const Expected e = WorkOut(served_->lines, start - (end - start), start, end, selected);
    EXPECT_EQ(FromProtoTimestamp(report.previous_start()), start - (end - start));
    EXPECT_EQ(report.previous_cost_micro(), e.previous);
    EXPECT_EQ(report.current_cost_micro(), e.current);
    EXPECT_EQ(report.change_micro(), e.current - e.previous);
    EXPECT_EQ(report.currency(), "EUR");
    ASSERT_EQ(report.drivers_size(), 7);
    int64_t sum = 0;
    for (const v1::SpendDriver& d : report.drivers()) {
      sum += d.change_micro();
      const long double want = e.drivers.at(d.name());
      EXPECT_LT(std::abs(static_cast<long double>(d.change_micro()) - want), 1.0L)
          << d.name() << ": " << d.change_micro() << " against " << static_cast<double>(want);
      if (d.name() != "held_time" && d.name() != "model_mix" && d.name() != "price") {
        EXPECT_EQ(static_cast<long double>(d.change_micro()), want) << d.name();
      }
    }
    EXPECT_EQ(sum, report.change_micro());
  }

  static inline std::unique_ptr<testing::ServedChargeback> served_;
};

const auto kAll = [](const Line&) { return true; };

TEST_F(InsightsChangesApiTest, TheFleetsDriversAgreeWithTheLinesAndAddUpToTheChange) {
  const absl::Time middle = kMoreStart + absl::Hours(4);
  ExpectAgrees(Request(middle, middle + absl::Hours(4)), kAll);
  ExpectAgrees(Request(middle + absl::Hours(1), middle + absl::Hours(3)), kAll);
  ExpectAgrees(Request(testing::kChargebackStart + absl::Hours(4), testing::kChargebackEnd), kAll);
  // Across both bills: the served hours are the previous window of a 26-hour current one.
  ExpectAgrees(Request(testing::kChargebackStart + absl::Hours(8), testing::kChargebackStart + absl::Hours(34)), kAll);
}

TEST_F(InsightsChangesApiTest, EveryDriverMovesAndTheTopWorkloadsAreNamed) {
  const absl::Time middle = kMoreStart + absl::Hours(4);
  v1::SpendChangeReport report;
  ASSERT_TRUE(Get(Request(middle, middle + absl::Hours(4)), &report).ok());
  std::map<std::string, v1::SpendDriver> by_name;
  for (const v1::SpendDriver& d : report.drivers()) by_name[d.name()] = d;
  for (const auto& [name, d] : by_name) EXPECT_NE(d.change_micro(), 0) << name;
  ASSERT_EQ(by_name["ended"].top_size(), 1);
  EXPECT_EQ(by_name["ended"].top(0).workload(), "Job/old");
  EXPECT_EQ(by_name["ended"].top(0).change_micro(), -27'000'000);
  ASSERT_EQ(by_name["started"].top_size(), 1);
  EXPECT_EQ(by_name["started"].top(0).team(), "ads");
  EXPECT_EQ(by_name["started"].top(0).change_micro(), 3 * (1'944'444 + 12'345));
  ASSERT_GE(by_name["model_mix"].top_size(), 2);
  EXPECT_EQ(by_name["model_mix"].top(0).workload(), "Job/mix");
  EXPECT_EQ(by_name["model_mix"].top(0).model(), "A100");
  EXPECT_GT(by_name["model_mix"].top(0).change_micro(), 0);
}

TEST_F(InsightsChangesApiTest, ATeamANamespaceAndATeamTokenSeeTheirOwnScope) {
  const absl::Time middle = kMoreStart + absl::Hours(4);
  const auto vision_subtree = [](const Line& l) { return l.team == "vision" || l.team == "vision-detect"; };
  ExpectAgrees(Request(middle, middle + absl::Hours(4), "vision"), vision_subtree);
  ExpectAgrees(Request(middle, middle + absl::Hours(4), "", "ads-ns"),
               [](const Line& l) { return l.namespace_name == "ads-ns"; });
  // The token's own subtree when it names no team, never the idle line.
  ExpectAgrees(Request(middle, middle + absl::Hours(4)), vision_subtree, "team:vision");
  ExpectAgrees(
      Request(middle, middle + absl::Hours(4), "vision-detect"),
      [](const Line& l) { return l.team == "vision-detect"; }, "team:vision");
  // Another team's namespace: only the token's teams' lines there, none.
  ExpectAgrees(
      Request(middle, middle + absl::Hours(4), "", "ads-ns"), [](const Line&) { return false; }, "team:vision");
  v1::SpendChangeReport report;
  const grpc::Status denied = Get(Request(middle, middle + absl::Hours(4), "ads"), &report, "team:vision");
  EXPECT_EQ(denied.error_code(), grpc::StatusCode::PERMISSION_DENIED) << denied.error_message();
}

TEST_F(InsightsChangesApiTest, TheHttpRouteAnswersTheSameReportAsJson) {
  auto answer = testing::HttpGet(
      served_->api.http_base() + "/v1/insights/changes?start=2026-02-02T04:00:00Z&end=2026-02-02T08:00:00Z&top=2",
      served_->tokens.at("planner"));
  ASSERT_THAT(answer, IsOk());
  ASSERT_EQ(answer->status, 200) << answer->body;
  const nlohmann::json json = nlohmann::json::parse(answer->body);
  v1::SpendChangeReport report;
  ASSERT_TRUE(Get(Request(kMoreStart + absl::Hours(4), kMoreStart + absl::Hours(8), "", "", 2), &report).ok());
  EXPECT_EQ(json.at("changeMicro").get<std::string>(), std::to_string(report.change_micro()));
  EXPECT_EQ(json.at("previousStart").get<std::string>(), "2026-02-02T00:00:00Z");
  ASSERT_EQ(json.at("drivers").size(), 7u);
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(json["drivers"][i].at("name").get<std::string>(), report.drivers(static_cast<int>(i)).name());
    EXPECT_EQ(json["drivers"][i].at("changeMicro").get<std::string>(),
              std::to_string(report.drivers(static_cast<int>(i)).change_micro()));
    EXPECT_LE(json["drivers"][i].value("top", nlohmann::json::array()).size(), 2u);
  }
}

TEST_F(InsightsChangesApiTest, BadParametersAreRefusedNamingThem) {
  const std::string base = served_->api.http_base() + "/v1/insights/changes?";
  for (const auto& [query, field] : std::vector<std::pair<std::string, std::string>>{
           {"end=2026-02-02T08:00:00Z", "start"},
           {"start=2026-02-02T04:00:00Z", "end"},
           {"start=2026-02-02T04:30:00Z&end=2026-02-02T08:00:00Z", "start"},
           {"start=2026-02-02T04:00:00Z&end=2026-02-02T04:00:00Z", "end"},
           {"start=2025-01-01T00:00:00Z&end=2026-02-06T00:00:00Z", "end"},  // 401 days
           {"start=0001-01-01T01:00:00Z&end=0001-01-01T03:00:00Z", "start"},
           {"start=2026-02-02T04:00:00Z&end=2026-02-02T08:00:00Z&top=101", "top"},
           {"start=2026-02-02T04:00:00Z&end=2026-02-02T08:00:00Z&top=-1", "top"},
           {"start=2026-02-02T04:00:00Z&end=2026-02-02T08:00:00Z&top=1000000000000", "top"},
           {"start=2026-02-02T04:00:00Z&end=2026-02-02T08:00:00Z&group_by=team", "group_by"},
       }) {
    auto answer = testing::HttpGet(base + query, served_->tokens.at("planner"));
    ASSERT_THAT(answer, IsOk());
    EXPECT_EQ(answer->status, 400) << query << ": " << answer->body;
    EXPECT_THAT(answer->body, HasSubstr(field)) << query;
  }
}

}  // namespace
}  // namespace fleetcap::insights_changes_test

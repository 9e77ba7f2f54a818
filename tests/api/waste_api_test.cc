// InsightsService.GetWaste and GET /v1/insights/waste against the real
// fleetcap-api on PostgreSQL, over idle-run pieces and workload hours written
// by PgInsightWasteRepository: every figure of every answer is compared with
// sums worked out here from the rows as written, for planners and for a team
// token (its subtree only), with filters and a limit; hostile parameters are
// refused naming the parameter.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "store/pg_insight_waste_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/served_chargeback.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::kChargebackStart;
using ::testing::HasSubstr;

const absl::Time kWasteStart = kChargebackStart;
constexpr int kWasteHours = 8;

struct Seeded {
  std::vector<store::IdlePieceRecord> pieces;
  std::vector<store::WorkloadHourRecord> hours;
};

struct PodOf {
  std::string cluster, pod, ns, team, workload;
};

// Pods of four teams (one of them `unassigned`) in two clusters, each idle
// for one or two runs that start and end at random minutes, and every
// workload's held, observed and active time per hour. Seeded: the same rows
// every run.
Seeded SeedRows() {
  std::mt19937_64 rng(33);
  auto in = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  const std::vector<PodOf> pods = {
      {"c1", "p1", "vision-ns", "vision", "Job/train"},    {"c1", "p2", "vision-ns", "vision", "Job/train"},
      {"c1", "p3", "detect-ns", "vision-detect", "Job/d"}, {"c2", "p1", "ads-ns", "ads", "Job/rank"},
      {"c2", "p4", "misc-ns", "unassigned", "Pod/x"},      {"c2", "p5", "vision-ns", "vision", "Job/eval"}};
  Seeded s;
  for (const PodOf& p : pods) {
    // Up to two runs in minutes of the eight hours, never touching.
    int64_t from = in(0, 200);
    for (int run = 0; run < 2 && from < kWasteHours * 60 - 1; ++run) {
      const int64_t to = std::min<int64_t>(from + in(1, 300), kWasteHours * 60);
      const int64_t milli = std::vector<int64_t>{1000, 2000, 428, 250}[static_cast<size_t>(in(0, 3))];
      for (int64_t m = from; m < to;) {
        const int64_t hour_end = (m / 60 + 1) * 60, end = std::min(to, hour_end);
        store::IdlePieceRecord piece{p.cluster,
                                     kWasteStart + absl::Minutes(m / 60 * 60),
                                     p.pod,
                                     kWasteStart + absl::Minutes(m),
                                     kWasteStart + absl::Minutes(end),
                                     p.ns,
                                     p.team,
                                     p.workload,
                                     "A100",
                                     milli,
                                     milli * 60 * (end - m),
                                     in(0, 5'000'000),
                                     0,
                                     0};
        piece.activity_milli_seconds = piece.wasted_milli_seconds * in(0, 4) / 100;
        piece.sm_milli_seconds = in(0, 1) ? piece.wasted_milli_seconds : 0;
        s.pieces.push_back(piece);
        m = end;
      }
      from = to + in(1, 120);
    }
  }
  std::set<std::tuple<std::string, std::string, std::string, std::string>> workloads;
  for (const PodOf& p : pods) workloads.insert({p.cluster, p.team, p.ns, p.workload});
  for (int h = 0; h < kWasteHours; ++h) {
    for (const auto& [cluster, team, ns, workload] : workloads) {
      store::WorkloadHourRecord w{cluster, kWasteStart + absl::Hours(h), team, ns, workload, in(4'000'000, 9'000'000)};
      w.observed_milli_seconds = w.held_milli_seconds - in(0, 1'000'000);
      w.active_milli_seconds = in(0, w.observed_milli_seconds);
      w.sm_observed_milli_seconds = in(0, 1) ? w.observed_milli_seconds : 0;
      // Job/eval runs kernels all along on a fifth of the SMs or less: busy but light.
      w.both_minutes = workload == "Job/eval" ? 30 : in(0, 60);
      w.both_held_milli_seconds = in(1'000'000, 2'000'000);
      w.both_duty_milli_seconds = w.both_held_milli_seconds * (workload == "Job/eval" ? 9 : in(0, 9)) / 10;
      w.both_sm_milli_seconds = w.both_held_milli_seconds * (workload == "Job/eval" ? 1 : in(0, 9)) / 10;
      s.hours.push_back(w);
    }
  }
  return s;
}

// What an answer must hold, worked out from the rows: per (team, namespace, workload).
struct ExpectedWorkload {
  int64_t held = 0, observed = 0, active = 0, wasted = 0, cost = 0, runs = 0;
  int64_t both_minutes = 0, both_held = 0, both_duty = 0, both_sm = 0;
  bool BusyButLight() const {
    return both_minutes >= 60 && both_held > 0 && both_duty * 10 >= both_held * 5 && both_sm * 10 < both_held * 2;
  }
};

struct Filter {
  absl::Time start = kWasteStart, end = kWasteStart + absl::Hours(kWasteHours);
  std::set<std::string> teams;  // empty: all
  std::string cluster, ns;
  bool Selects(const std::string& c, absl::Time hour, const std::string& team, const std::string& n) const {
    return hour >= start && hour < end && (teams.empty() || teams.count(team)) && (cluster.empty() || c == cluster) &&
           (ns.empty() || n == ns);
  }
};

using WorkloadKey = std::tuple<std::string, std::string, std::string>;

std::map<WorkloadKey, ExpectedWorkload> Expect(const Seeded& s, const Filter& f) {
  std::map<WorkloadKey, ExpectedWorkload> out;
  for (const auto& h : s.hours) {
    if (!f.Selects(h.cluster, h.hour, h.team, h.namespace_name)) continue;
    ExpectedWorkload& w = out[{h.team, h.namespace_name, h.workload}];
    w.held += h.held_milli_seconds;
    w.observed += h.observed_milli_seconds;
    w.active += h.active_milli_seconds;
    w.both_minutes += h.both_minutes;
    w.both_held += h.both_held_milli_seconds;
    w.both_duty += h.both_duty_milli_seconds;
    w.both_sm += h.both_sm_milli_seconds;
  }
  std::map<std::pair<std::string, std::string>, absl::Time> last_end;  // a run goes on where its last piece ended
  for (const auto& p : s.pieces) {
    if (!f.Selects(p.cluster, p.hour, p.team, p.namespace_name)) continue;
    ExpectedWorkload& w = out[{p.team, p.namespace_name, p.workload}];
    w.wasted += p.wasted_milli_seconds;
    w.cost += p.wasted_cost_micro;
    auto [it, first] = last_end.try_emplace({p.cluster, p.pod_uid}, p.end);
    if (first || it->second != p.start) ++w.runs;
    it->second = p.end;
  }
  return out;
}

int64_t Int(const nlohmann::json& j, const char* key) {
  return j.contains(key) ? std::stoll(j[key].get<std::string>()) : 0;
}
std::string Str(const nlohmann::json& j, const char* key) { return j.contains(key) ? j[key].get<std::string>() : ""; }

class WasteApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeChargeback(fleetcap::testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = served->release();
    auto pool = PgPool::Open(served_->db->uri(), 1);
    ASSERT_THAT(pool, IsOk());
    seeded_ = new Seeded(SeedRows());
    store::PgInsightWasteRepository repo(pool->get());
    for (const char* cluster : {"c1", "c2"}) {
      std::vector<store::IdlePieceRecord> pieces;
      std::vector<store::WorkloadHourRecord> hours;
      for (const auto& p : seeded_->pieces) {
        if (p.cluster == cluster) pieces.push_back(p);
      }
      for (const auto& h : seeded_->hours) {
        if (h.cluster == cluster) hours.push_back(h);
      }
      ASSERT_THAT(repo.ReplaceHours(cluster, kWasteStart, kWasteStart + absl::Hours(kWasteHours), pieces, hours),
                  IsOk());
    }
  }
  static void TearDownTestSuite() {
    delete served_;
    delete seeded_;
  }

  static testing::HttpResult Get(const std::string& query, const std::string& role) {
    auto answer = testing::HttpGet(served_->api.http_base() + "/v1/insights/waste?" + query, served_->tokens[role]);
    EXPECT_THAT(answer, IsOk());
    return answer.ok() ? *answer : testing::HttpResult{};
  }

  static std::string Window(const Filter& f) {
    return absl::StrCat("start=", FormatRfc3339(f.start), "&end=", FormatRfc3339(f.end));
  }

  // Every figure of the answer to `query` against the rows `f` selects.
  static void ExpectAnswer(const std::string& query, const std::string& role, const Filter& f, size_t limit = 50) {
    SCOPED_TRACE(query + " as " + role);
    const testing::HttpResult answer = Get(query, role);
    ASSERT_EQ(answer.status, 200) << answer.body;
    const nlohmann::json report = nlohmann::json::parse(answer.body);
    const auto expected = Expect(*seeded_, f);
    std::map<std::string, ExpectedWorkload> teams;
    ExpectedWorkload fleet;
    size_t listed = 0;
    for (const auto& [key, w] : expected) {
      for (ExpectedWorkload* sum : {&teams[std::get<0>(key)], &fleet}) {
        sum->held += w.held;
        sum->observed += w.observed;
        sum->active += w.active;
        sum->wasted += w.wasted;
        sum->cost += w.cost;
      }
      if (w.wasted > 0 || w.BusyButLight()) ++listed;
    }
    EXPECT_EQ(Int(report, "wastedCostMicro"), fleet.cost);
    EXPECT_EQ(Int(report, "wastedMilliSeconds"), fleet.wasted);
    EXPECT_EQ(Int(report, "unknownMilliSeconds"), fleet.held - fleet.observed);
    EXPECT_EQ(report.value("workloadCount", 0), static_cast<int>(listed));
    EXPECT_EQ(report.value("currency", ""), "EUR");
    const nlohmann::json workloads = report.value("workloads", nlohmann::json::array());
    EXPECT_EQ(workloads.size(), std::min(listed, limit));
    int64_t previous = INT64_MAX;
    for (const auto& w : workloads) {
      const WorkloadKey key{Str(w, "team"), Str(w, "namespace"), Str(w, "workload")};
      ASSERT_EQ(expected.count(key), 1u) << w;
      const ExpectedWorkload& e = expected.at(key);
      EXPECT_EQ(Int(w, "heldMilliSeconds"), e.held) << w;
      EXPECT_EQ(Int(w, "wastedMilliSeconds"), e.wasted) << w;
      EXPECT_EQ(Int(w, "wastedCostMicro"), e.cost) << w;
      EXPECT_EQ(Int(w, "unknownMilliSeconds"), e.held - e.observed) << w;
      EXPECT_EQ(w.value("runCount", 0), e.runs) << w;
      EXPECT_EQ(w.value("busyButLight", false), e.BusyButLight()) << w;
      int64_t run_cost = 0;
      for (const auto& r : w.value("runs", nlohmann::json::array())) run_cost += Int(r, "wastedCostMicro");
      if (e.runs <= 20) {
        EXPECT_EQ(run_cost, e.cost) << w;
      }
      EXPECT_LE(e.cost, previous) << "the most wasted first";
      previous = e.cost;
    }
    for (const auto& score : report.value("efficiency", nlohmann::json::array())) {
      const std::string team = Str(score, "team");
      const ExpectedWorkload& e = team.empty() ? fleet : teams.at(team);
      EXPECT_EQ(Int(score, "heldMilliSeconds"), e.held) << score;
      EXPECT_EQ(Int(score, "observedMilliSeconds"), e.observed) << score;
      EXPECT_EQ(Int(score, "activeMilliSeconds"), e.active) << score;
      EXPECT_NEAR(score.value("score", 0.0), e.observed == 0 ? 0.0 : double(e.active) / double(e.observed), 1e-12);
    }
    EXPECT_EQ(report.value("efficiency", nlohmann::json::array()).size(), teams.size() + 1);
    for (const auto& t : report.value("teams", nlohmann::json::array())) {
      const ExpectedWorkload& e = teams.at(Str(t, "team"));
      EXPECT_EQ(Int(t, "wastedCostMicro"), e.cost) << t;
      EXPECT_EQ(Int(t, "unknownMilliSeconds"), e.held - e.observed) << t;
    }
  }

  static testing::ServedChargeback* served_;
  static Seeded* seeded_;
};

testing::ServedChargeback* WasteApiTest::served_ = nullptr;
Seeded* WasteApiTest::seeded_ = nullptr;

TEST_F(WasteApiTest, APlannerSeesEveryWorkloadWithItsFiguresAsStored) {
  ASSERT_FALSE(seeded_->pieces.empty());
  Filter all;
  ExpectAnswer(Window(all), "planner", all);
  ExpectAnswer(Window(all) + "&limit=2", "planner", all, 2);
  Filter later = all;
  later.start = kWasteStart + absl::Hours(3);
  later.end = kWasteStart + absl::Hours(5);
  ExpectAnswer(Window(later), "planner", later);
  Filter c2 = all;
  c2.cluster = "c2";
  ExpectAnswer(Window(c2) + "&cluster=c2", "planner", c2);
  Filter vision_ns = all;
  vision_ns.ns = "vision-ns";
  ExpectAnswer(Window(vision_ns) + "&namespace=vision-ns", "planner", vision_ns);
  Filter vision = all;
  vision.teams = {"vision", "vision-detect"};
  ExpectAnswer(Window(vision) + "&team=vision", "planner", vision);
}

TEST_F(WasteApiTest, ATeamTokenSeesItsSubtreeOnly) {
  Filter mine;
  mine.teams = {"vision", "vision-detect"};
  ExpectAnswer(Window(mine), "team:vision", mine);
  Filter detect = mine;
  detect.teams = {"vision-detect"};
  ExpectAnswer(Window(detect) + "&team=vision-detect", "team:vision", detect);
  EXPECT_EQ(Get(Window(mine) + "&team=ads", "team:vision").status, 403);
  EXPECT_EQ(Get(Window(mine) + "&team=unassigned", "team:vision").status, 403);
  EXPECT_EQ(Get(Window(mine), "scheduler").status, 403);
}

TEST_F(WasteApiTest, HostileParametersAreRefusedNamingTheParameter) {
  const std::string window = Window(Filter{});
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"end=2026-02-01T04:00:00Z", "start"},
      {"start=2026-02-01T04:00:00Z&end=2026-01-31T20:00:00Z", "end"},
      {"start=2026-01-31T20:30:00Z&end=2026-02-01T04:00:00Z", "start"},
      {"start=2020-01-01T00:00:00Z&end=2026-01-01T00:00:00Z", "end"},
      {"start=0001-01-01T00:00:00Z&end=9999-12-31T00:00:00Z", "end"},
      {window + "&limit=-1", "limit"},
      {window + "&limit=1001", "limit"},
      {window + "&limit=1000000000000", "limit"},
      {window + "&color=red", "color"},
      {window + "&team=%00", "team"},
      {window + "&team=%FF%FE", "team"},
      {"start=yesterday&end=2026-02-01T04:00:00Z", "start"},
  };
  for (const auto& [query, parameter] : refused) {
    const testing::HttpResult answer = Get(query, "planner");
    EXPECT_EQ(answer.status, 400) << query << ": " << answer.body;
    EXPECT_THAT(answer.body, HasSubstr(parameter)) << query;
  }
}

TEST_F(WasteApiTest, FleetcapctlPrintsTheSameFiguresExactlyInCsvAndRoundedInATable) {
  Filter all;
  const auto expected = Expect(*seeded_, all);
  int64_t cost = 0, wasted = 0;
  for (const auto& [key, w] : expected) {
    cost += w.cost;
    wasted += w.wasted;
  }
  auto ctl = [&](const std::string& format) {
    return testing::Run({fleetcap::testing::kCtlBin, "insights", "waste", "--server", served_->api.grpc_address(),
                         "--token", served_->tokens["planner"], "--from", FormatRfc3339(all.start), "--to",
                         FormatRfc3339(all.end), "--format", format});
  };
  const testing::RunResult csv = ctl("csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  // The fleet's row: every figure exact (money with as many decimals as it needs).
  const std::string micro = absl::StrCat(cost);
  const std::string money = absl::StrCat(micro.substr(0, micro.size() - 6), ".", micro.substr(micro.size() - 6));
  EXPECT_THAT(csv.out, HasSubstr(absl::StrCat(",", wasted, ",")));
  EXPECT_THAT(csv.out, HasSubstr("fleet,,,,")) << csv.out;
  EXPECT_THAT(csv.out, HasSubstr(money.substr(0, money.find('.') + 3))) << csv.out;
  const testing::RunResult table = ctl("table");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("EUR over"));
  EXPECT_THAT(table.out, HasSubstr("(fleet)"));
  const testing::RunResult bad = ctl("focus");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--format"));
}

}  // namespace
}  // namespace fleetcap

// request_attribution.sql against the attribution engine: the same facts
// written into PostgreSQL and given to `attribution::Attribute` in-process
// (request basis, idle shared or kept per cluster) give the same lines, to
// the micro-unit, line by line and per (team, model). Random fleets (seeded)
// and a few made by hand, one rule each.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "optimizer/attribution/attribution_engine.h"
#include "tests/sql/sql_baseline.h"
#include "tests/support/test_database.h"

namespace fleetcap::sql_baseline {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1767261600);  // 2026-01-01T10:00:00Z
const absl::Time kEnd = kStart + absl::Hours(3);

absl::Time At(int64_t seconds_after_start) { return kStart + absl::Seconds(seconds_after_start); }

policy::Price Price(const std::string& model, const std::string& cluster, absl::Time from, std::optional<absl::Time> to,
                    int64_t micro) {
  policy::Price p;
  p.model = model;
  p.cluster = cluster;
  p.from = from;
  p.to = to;
  p.micro_per_device_hour = micro;
  return p;
}

// Teams whose bytewise order differs from a dictionary's: "Speech" < "speech-2" < "vision".
const NamespaceTeams kTeams = {{{"c1", "cv"}, "vision"},
                               {{"c1", "asr"}, "Speech"},
                               {{"c2", "cv"}, "vision"},
                               {{"c2", "asr"}, "speech-2"},
                               {{"c2", "scratch"}, "Speech"}};

struct Outcome {
  std::vector<Line> engine, sql;
  attribution::AttributionReport report;
};

class RequestAttributionSqlTest : public testing::MigratedDatabaseTest {
 protected:
  // Both sides over the same facts, in one transaction that is rolled back.
  Outcome Run(const attribution::AttributionInput& input, const std::string& idle,
              const NamespaceTeams& teams = kTeams) {
    Outcome out;
    attribution::AttributionInput engine_input = input;
    engine_input.options.basis = "request";
    engine_input.options.idle = idle;
    engine_input.options.idle_scope = "cluster";
    auto report = attribution::Attribute(engine_input, MappedTeams(teams), [&](attribution::HourLines&& hour) {
      for (const auto& l : hour.lines) out.engine.push_back(FromChargeLine(l));
    });
    EXPECT_TRUE(report.ok()) << report.status();
    if (report.ok()) out.report = *report;
    pqxx::work txn(*conn_);
    EXPECT_TRUE(LoadFacts(txn, input).ok());
    EXPECT_TRUE(LoadPricesAndTeams(txn, input.prices, teams).ok());
    auto sql = RunRequestAttribution(txn, input.start, input.end, idle);
    EXPECT_TRUE(sql.ok()) << sql.status();
    if (sql.ok()) out.sql = *sql;
    std::sort(out.engine.begin(), out.engine.end());
    std::sort(out.sql.begin(), out.sql.end());
    return out;
  }

  // Equal line by line, and per (team, model).
  Outcome ExpectSqlEqualsEngine(const attribution::AttributionInput& input, const std::string& idle,
                                const std::string& what) {
    Outcome out = Run(input, idle);
    EXPECT_EQ(out.sql, out.engine) << what << ", idle " << idle;
    std::map<std::pair<std::string, std::string>, int64_t> sql_sums, engine_sums;
    for (const Line& l : out.sql) sql_sums[{l.team, l.model}] += l.total_cost_micro;
    for (const Line& l : out.engine) engine_sums[{l.team, l.model}] += l.total_cost_micro;
    EXPECT_EQ(sql_sums, engine_sums) << what << ", idle " << idle;
    return out;
  }
};

attribution::AttributionInput OneA100(int64_t micro_per_hour) {
  attribution::AttributionInput in;
  in.start = kStart;
  in.end = kEnd;
  in.devices.push_back({"c1", "n1", "g0", "A100", kStart - absl::Hours(1)});
  in.prices.push_back(Price("A100", "", kStart - absl::Hours(24), std::nullopt, micro_per_hour));
  return in;
}

attribution::HoldFact Hold(const std::string& pod, const std::string& ns, const std::string& device, int64_t milli,
                           absl::Time from, absl::Time to) {
  return {"c1", pod, ns, "", absl::StrCat("Job/", pod), device, milli, from, to};
}

Line Find(const std::vector<Line>& lines, absl::Time hour, const std::string& team) {
  for (const Line& l : lines) {
    if (l.hour == hour && l.team == team) return l;
  }
  return {};
}

TEST_F(RequestAttributionSqlTest, WorkedExampleOfTheDocsGivesItsFigures) {
  attribution::AttributionInput in = OneA100(7000000);
  in.devices.push_back({"c1", "n1", "g1", "A100", kStart - absl::Hours(1)});
  in.holds.push_back(Hold("p1", "cv", "g0", 1000, kStart, kEnd));
  in.holds.push_back(Hold("p2", "asr", "g1", 500, kStart, kEnd));
  Outcome out = ExpectSqlEqualsEngine(in, "share", "docs/attribution.md worked example");
  const Line speech = Find(out.sql, kStart, "Speech");
  EXPECT_EQ(speech.direct_cost_micro, 3500000);
  EXPECT_EQ(speech.idle_cost_micro, 1166667);
  EXPECT_EQ(speech.total_cost_micro, 4666667);
  EXPECT_EQ(Find(out.sql, kStart, "vision").total_cost_micro, 9333333);
  out = ExpectSqlEqualsEngine(in, "keep", "docs/attribution.md worked example");
  EXPECT_EQ(Find(out.sql, kStart, "idle").total_cost_micro, 3500000);
}

TEST_F(RequestAttributionSqlTest, PriceChangingMidHourAndAClustersOwnPrice) {
  attribution::AttributionInput in = OneA100(7000000);
  in.prices[0].to = At(20 * 60);
  in.prices.push_back(Price("A100", "", At(20 * 60), std::nullopt, 8000000));
  in.prices.push_back(Price("A100", "c1", At(90 * 60), At(100 * 60 + 7), 3333333));
  in.holds.push_back(Hold("p1", "cv", "g0", 500, kStart, kEnd));
  in.holds.push_back(Hold("p2", "asr", "g0", 250, At(10 * 60), At(95 * 60)));
  Outcome out = ExpectSqlEqualsEngine(in, "share", "price change");
  ExpectSqlEqualsEngine(in, "keep", "price change");
  // The first hour: 20 minutes at 7.00 and 40 at 8.00 is 7.6666666.., rounded once, half up.
  EXPECT_EQ(Find(out.sql, kStart, "vision").total_cost_micro + Find(out.sql, kStart, "Speech").total_cost_micro,
            7666667);
}

TEST_F(RequestAttributionSqlTest, NodeRemovedMidHourAndBackLater) {
  attribution::AttributionInput in = OneA100(7000000);
  in.devices[0].to = At(45 * 60);
  in.devices.push_back({"c1", "n1", "g0", "A100", At(2 * 3600 + 13 * 60 + 1)});
  in.holds.push_back(Hold("p1", "cv", "g0", 1000, kStart, kEnd));
  ExpectSqlEqualsEngine(in, "share", "device removed");
  ExpectSqlEqualsEngine(in, "keep", "device removed");
}

TEST_F(RequestAttributionSqlTest, ThirtySecondPod) {
  attribution::AttributionInput in = OneA100(9999999);
  in.holds.push_back(Hold("p1", "cv", "g0", 1000, At(3600 + 17), At(3600 + 47)));
  Outcome out = ExpectSqlEqualsEngine(in, "share", "30-second pod");
  EXPECT_EQ(Find(out.sql, kStart + absl::Hours(1), "vision").held_milli_seconds, 30000);
  ExpectSqlEqualsEngine(in, "keep", "30-second pod");
}

TEST_F(RequestAttributionSqlTest, OverHeldDeviceIsSplitInProportion) {
  attribution::AttributionInput in = OneA100(7000001);
  in.holds.push_back(Hold("p1", "cv", "g0", 1000, kStart, At(5000)));
  in.holds.push_back(Hold("p2", "asr", "g0", 700, At(600), At(9000)));
  in.holds.push_back(Hold("p3", "asr", "g0", 333, At(1200), At(1300)));
  Outcome out = ExpectSqlEqualsEngine(in, "share", "over-held");
  EXPECT_FALSE(out.report.over_held.empty());
  ExpectSqlEqualsEngine(in, "keep", "over-held");
}

TEST_F(RequestAttributionSqlTest, MigSlicesOf428) {
  attribution::AttributionInput in = OneA100(6999999);
  in.holds.push_back(Hold("p1", "cv", "g0", 428, kStart, kEnd));
  in.holds.push_back(Hold("p2", "asr", "g0", 428, At(100), At(7000)));
  in.holds.push_back(Hold("p3", "asr", "g0", 142, At(1800), kEnd));
  ExpectSqlEqualsEngine(in, "share", "MIG");
  ExpectSqlEqualsEngine(in, "keep", "MIG");
}

TEST_F(RequestAttributionSqlTest, HourWithNoHoldsIsAllIdle) {
  attribution::AttributionInput in = OneA100(7000000);
  in.holds.push_back(Hold("p1", "cv", "g0", 500, kStart, At(3600)));
  Outcome out = ExpectSqlEqualsEngine(in, "share", "idle hours");
  const Line idle = Find(out.sql, kStart + absl::Hours(2), "idle");
  EXPECT_EQ(idle.line_kind, "idle");
  EXPECT_EQ(idle.total_cost_micro, 7000000);
  ExpectSqlEqualsEngine(in, "keep", "idle hours");
}

TEST_F(RequestAttributionSqlTest, TiesGoToTheFirstTeamBytewiseAndUnknownPodsAreUnassigned) {
  // 1 micro-unit an hour: two equal halves tie for the one micro-unit.
  attribution::AttributionInput in = OneA100(1);
  in.holds.push_back(Hold("p1", "cv", "g0", 500, kStart, kEnd));               // vision
  in.holds.push_back(Hold("p2", "asr", "g0", 500, kStart, kEnd));              // Speech: first bytewise
  in.holds.push_back({"c1", "ghost", "", "", "", "g0", 250, At(3600), kEnd});  // not in the inventory
  Outcome out = ExpectSqlEqualsEngine(in, "share", "tie");
  EXPECT_EQ(Find(out.sql, kStart, "Speech").total_cost_micro, 1);
  EXPECT_EQ(Find(out.sql, kStart, "vision").total_cost_micro, 0);
  EXPECT_EQ(Find(out.sql, kStart + absl::Hours(1), "unassigned").held_milli_seconds, 250 * 3600);
  ExpectSqlEqualsEngine(in, "keep", "tie");
}

// Random fleets in the manner of optimizer/attribution/attribution_property_test.cc,
// on what the SQL covers: devices leaving and returning mid-hour, prices
// changing mid-hour and per cluster (and none for a while), MIG, time-sliced
// and odd fractions, over-held devices, pods the inventory does not know.
attribution::AttributionInput RandomFleet(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto in = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  auto around = [&](absl::Duration before, absl::Duration after) {
    return kStart + absl::Seconds(in(-absl::ToInt64Seconds(before), absl::ToInt64Seconds(after)));
  };
  attribution::AttributionInput f;
  f.start = kStart;
  f.end = kEnd;
  const std::vector<std::string> clusters = {"c1", "c2"}, models = {"A100", "T4"}, nodes = {"n1", "n2", "n3"};
  const int devices = static_cast<int>(in(1, 12));
  for (int i = 0; i < devices; ++i) {
    attribution::DeviceInService d{clusters[in(0, 1)], nodes[in(0, 2)], absl::StrCat("g", i), models[in(0, 1)],
                                   around(absl::Hours(1), absl::Hours(3))};
    if (in(0, 2) > 0) d.to = d.from + absl::Seconds(in(1, 4 * 3600));
    f.devices.push_back(d);
    if (d.to != absl::InfiniteFuture() && in(0, 3) == 0) {  // back in service later
      attribution::DeviceInService again = d;
      again.from = d.to + absl::Seconds(in(1, 3600));
      again.to = absl::InfiniteFuture();
      f.devices.push_back(again);
    }
  }
  for (const std::string& model : models) {
    const absl::Time change = around(absl::Hours(0), absl::Hours(3));
    f.prices.push_back(Price(model, "", absl::FromUnixSeconds(0), change, in(0, 9999999)));
    if (in(0, 4) > 0) {  // else no price after the change
      f.prices.push_back(Price(model, "", change, std::nullopt, in(1, 9999999)));
    }
    if (in(0, 1) == 0) {  // c2 has its own price for a while
      const absl::Time from = around(absl::Hours(1), absl::Hours(2));
      f.prices.push_back(Price(model, "c2", from, from + absl::Seconds(in(1, 7200)), in(1, 9999999)));
    }
  }
  const std::vector<std::string> namespaces = {"cv", "asr", "scratch", "kube-system"}, workloads = {"Job/a", "Job/b"};
  const std::vector<int64_t> shares = {1000, 500, 250, 428, 571, 142};
  const int holds = static_cast<int>(in(0, 24));
  for (int i = 0; i < holds; ++i) {
    const attribution::DeviceInService& d = f.devices[in(0, static_cast<int64_t>(f.devices.size()) - 1)];
    attribution::HoldFact h{d.cluster,
                            absl::StrCat("p", i),
                            namespaces[in(0, 3)],
                            "",
                            workloads[in(0, 1)],
                            d.device_id,
                            in(0, 3) == 0 ? in(1, 1000) : shares[in(0, 5)],
                            around(absl::Minutes(30), absl::Hours(3))};
    if (in(0, 9) == 0) h.namespace_name = h.workload = "";  // a pod the inventory does not know
    h.to = in(0, 7) == 0 ? absl::InfiniteFuture() : h.from + absl::Seconds(in(1, 2 * 3600));
    f.holds.push_back(h);
  }
  return f;
}

TEST_F(RequestAttributionSqlTest, RandomFleetsGiveTheEnginesLinesToTheMicroUnit) {
  int64_t lines = 0, over_held = 0, shared_idle = 0, kept_idle = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const attribution::AttributionInput fleet = RandomFleet(seed);
    for (const std::string idle : {"share", "keep"}) {
      const Outcome out = ExpectSqlEqualsEngine(fleet, idle, absl::StrCat("seed ", seed));
      if (HasFailure()) return;  // the first fleet that differs says enough
      lines += static_cast<int64_t>(out.sql.size());
      over_held += static_cast<int64_t>(out.report.over_held.size());
      for (const Line& l : out.sql) {
        if (l.line_kind == "workload" && l.idle_cost_micro > 0) ++shared_idle;
        if (l.line_kind == "idle") ++kept_idle;
      }
    }
  }
  // The fleets exercise what they are meant to.
  EXPECT_GT(lines, 500);
  EXPECT_GT(over_held, 10);
  EXPECT_GT(shared_idle, 50);
  EXPECT_GT(kept_idle, 50);
}

}  // namespace
}  // namespace fleetcap::sql_baseline

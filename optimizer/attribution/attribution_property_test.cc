// Properties over random fleets (seeded, so every run checks the same
// fleets): conservation to the micro-unit, no negative line, and a charge
// that never falls when a hold grows. The fleets mix everything the cases
// test one at a time: devices leaving and returning mid-hour, prices changing
// mid-hour and per cluster, MIG, time-sliced and odd fractions, over-held
// devices, telemetry with gaps, a policy change, shared namespaces, fixed
// costs across a month's end, and every option.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "optimizer/attribution/attribution_engine.h"
#include "optimizer/attribution/explanation_checks.h"
#include "optimizer/attribution/fixed_costs.h"
#include "optimizer/attribution/second_by_second_cost.h"

namespace fleetcap::attribution {
namespace {

// Three hours across the end of January, so fixed costs change month.
const absl::Time kStart = absl::FromUnixSeconds(1769896800);  // 2026-01-31T22:00:00Z
const absl::Time kEnd = kStart + absl::Hours(3);

constexpr const char* kPolicyBefore = R"(version: 1
teams: [{name: vision}, {name: speech}]
namespaces: [{namespace: cv, team: vision}, {namespace: asr, team: speech}]
)";
constexpr const char* kPolicyAfter = R"(version: 1
teams: [{name: vision}, {name: speech}]
namespaces: [{namespace: cv, team: vision}, {namespace: asr, team: vision}]
)";

struct Fleet {
  AttributionInput input;
  absl::Time policy_change;
};

class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed) {}
  int64_t In(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  template <typename T>
  const T& Of(const std::vector<T>& v) {
    return v[static_cast<size_t>(In(0, static_cast<int64_t>(v.size()) - 1))];
  }
  absl::Time Around(absl::Duration before, absl::Duration after) {
    return kStart + absl::Seconds(In(-absl::ToInt64Seconds(before), absl::ToInt64Seconds(after)));
  }

 private:
  std::mt19937_64 rng_;
};

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

Fleet RandomFleet(uint64_t seed) {
  Random r(seed);
  Fleet f;
  AttributionInput& in = f.input;
  in.start = kStart;
  in.end = kEnd;
  const std::vector<std::string> clusters = {"c1", "c2"}, models = {"A100", "T4"}, nodes = {"n1", "n2", "n3"};
  const int devices = static_cast<int>(r.In(1, 8));
  for (int i = 0; i < devices; ++i) {
    DeviceInService d{r.Of(clusters), r.Of(nodes), absl::StrCat("g", i), r.Of(models),
                      r.Around(absl::Hours(1), absl::Hours(3))};
    if (r.In(0, 2) > 0) d.to = d.from + absl::Seconds(r.In(1, 4 * 3600));
    in.devices.push_back(d);
    if (d.to != absl::InfiniteFuture() && r.In(0, 3) == 0) {  // back in service later
      DeviceInService again = d;
      again.from = d.to + absl::Seconds(r.In(1, 3600));
      again.to = absl::InfiniteFuture();
      in.devices.push_back(again);
    }
  }
  for (const std::string& model : models) {
    const absl::Time change = r.Around(absl::Hours(0), absl::Hours(3));
    in.prices.push_back(Price(model, "", absl::FromUnixSeconds(0), change, r.In(0, 9999999)));
    in.prices.push_back(Price(model, "", change, std::nullopt, r.In(1, 9999999)));
    if (r.In(0, 1) == 0) {  // c2 has its own price for a while
      const absl::Time from = r.Around(absl::Hours(1), absl::Hours(2));
      in.prices.push_back(Price(model, "c2", from, from + absl::Seconds(r.In(1, 7200)), r.In(1, 9999999)));
    }
  }
  const std::vector<std::string> namespaces = {"cv", "asr", "scratch", "kube-system"}, workloads = {"Job/a", "Job/b"};
  const std::vector<int64_t> shares = {1000, 500, 250, 428, 571, 142};
  const int holds = static_cast<int>(r.In(0, 14));
  for (int i = 0; i < holds; ++i) {
    const DeviceInService& d = r.Of(in.devices);
    HoldFact h{d.cluster,
               absl::StrCat("p", i),
               r.Of(namespaces),
               "",
               r.Of(workloads),
               d.device_id,
               r.In(0, 3) == 0 ? r.In(1, 1000) : r.Of(shares),
               r.Around(absl::Minutes(30), absl::Hours(3))};
    h.to = h.from + absl::Seconds(r.In(1, 2 * 3600));
    in.holds.push_back(h);
    if (r.In(0, 1) == 0) {  // telemetry for some minutes of it
      const absl::Time first = absl::FromUnixSeconds(absl::ToUnixSeconds(h.from) / 60 * 60);
      for (absl::Time m = first; m < h.to; m += absl::Minutes(1)) {
        if (r.In(0, 9) < 7) in.usage.push_back({h.cluster, h.pod_uid, h.device_id, m, r.In(0, 1000)});
      }
    }
  }
  in.options.basis = r.Of(std::vector<std::string>{"request", "usage", "max"});
  in.options.idle = r.Of(std::vector<std::string>{"share", "even", "keep"});
  in.options.idle_scope = r.Of(std::vector<std::string>{"cluster", "node"});
  in.options.shared_spread = r.Of(std::vector<std::string>{"weighted", "even"});
  if (r.In(0, 1) == 0) in.options.shared_namespaces = {"kube-system"};
  if (r.In(0, 1) == 0) in.options.fixed_monthly_costs = {{"support", r.In(0, 1000000000)}};
  f.policy_change = r.Around(absl::Hours(0), absl::Hours(3));
  return f;
}

struct AttributedHours {
  std::vector<ChargeLine> lines;
  std::vector<std::pair<absl::Time, DeviceHourUse>> devices;
  AttributionReport report;
};

// The fleet's two policy versions; the timeline reads them from here.
struct FleetPolicies {
  explicit FleetPolicies(const Fleet& f)
      : stored{{1, kStart - absl::Hours(24), kPolicyBefore}, {2, f.policy_change, kPolicyAfter}},
        timeline([this](int32_t after) -> absl::StatusOr<std::vector<policy::StoredPolicy>> {
          std::vector<policy::StoredPolicy> out;
          for (const auto& s : stored) {
            if (s.version > after) out.push_back(s);
          }
          return out;
        }) {
    EXPECT_TRUE(timeline.Refresh().ok());
  }
  std::vector<policy::StoredPolicy> stored;
  policy::PolicyTimeline timeline;
};

AttributedHours AttributeFleet(const Fleet& f) {
  FleetPolicies policies(f);
  PolicyTimelineTeams teams(policies.timeline, {});
  AttributedHours run;
  absl::StatusOr<AttributionReport> report = Attribute(f.input, teams, [&](HourLines&& hour) {
    for (auto& l : hour.lines) run.lines.push_back(std::move(l));
    for (auto& d : hour.devices) run.devices.emplace_back(hour.hour, std::move(d));
  });
  EXPECT_TRUE(report.ok()) << report.status();
  if (report.ok()) run.report = std::move(*report);
  return run;
}

constexpr uint64_t kFleets = 150;

TEST(AttributionProperties, EveryCellAndTheWholeConserveTheFleetCostToTheMicroUnit) {
  // Fewer fleets: the independent cost goes second by second.
  for (uint64_t seed = 1; seed <= kFleets / 3; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const Fleet f = RandomFleet(seed);
    const AttributedHours run = AttributeFleet(f);
    std::map<CellKey, int64_t> charged;
    std::map<absl::Time, int64_t> fixed;
    int64_t total = 0;
    for (const ChargeLine& l : run.lines) {
      if (l.line_kind == kFixedLine) {
        fixed[l.hour] += l.total_cost_micro;
      } else {
        charged[{l.hour, l.cluster, l.model}] += l.total_cost_micro;
      }
      total += l.total_cost_micro;
    }
    int64_t expected_total = 0;
    for (const auto& [cell, micro] : SecondBySecondFleetCost(f.input)) {
      EXPECT_EQ(charged[cell], micro) << FormatRfc3339(std::get<0>(cell)) << " " << std::get<1>(cell) << " "
                                      << std::get<2>(cell);
      expected_total += micro;
    }
    for (absl::Time hour = kStart; hour < kEnd; hour += absl::Hours(1)) {
      int64_t month_part = 0;
      for (const policy::FixedCost& c : f.input.options.fixed_monthly_costs) {
        month_part += MonthlyCostForHour(c.micro_per_month, hour);
      }
      EXPECT_EQ(fixed[hour], month_part) << FormatRfc3339(hour);
      expected_total += month_part;
    }
    EXPECT_EQ(total, expected_total);
    EXPECT_EQ(run.report.total_cost_micro, total);
  }
}

TEST(AttributionProperties, NoLineIsNegativeAndEachAddsUpToItsTotal) {
  for (uint64_t seed = 1; seed <= kFleets; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    for (const ChargeLine& l : AttributeFleet(RandomFleet(seed)).lines) {
      EXPECT_GE(l.held_milli_seconds, 0);
      EXPECT_GE(l.used_milli_seconds, 0);
      EXPECT_GE(l.observed_milli_seconds, 0);
      EXPECT_LE(l.observed_milli_seconds, l.held_milli_seconds);
      EXPECT_GE(l.direct_cost_micro, 0);
      EXPECT_GE(l.idle_cost_micro, 0);
      EXPECT_GE(l.shared_cost_micro, 0);
      EXPECT_EQ(l.total_cost_micro, l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro);
    }
  }
}

TEST(AttributionProperties, TheDevicesHeldAddUpToTheirCellsLines) {
  using Figures = std::tuple<int64_t, int64_t, int64_t>;  // held, used, observed
  for (uint64_t seed = 1; seed <= kFleets; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const AttributedHours run = AttributeFleet(RandomFleet(seed));
    std::map<CellKey, Figures> of_lines, of_devices;
    for (const ChargeLine& l : run.lines) {
      if (l.line_kind == kFixedLine) continue;
      auto& [held, used, observed] = of_lines[{l.hour, l.cluster, l.model}];
      held += l.held_milli_seconds;
      used += l.used_milli_seconds;
      observed += l.observed_milli_seconds;
    }
    std::set<std::tuple<absl::Time, std::string, std::string>> seen;  // (hour, cluster, device)
    for (const auto& [hour, d] : run.devices) {
      EXPECT_TRUE(seen.insert({hour, d.cluster, d.device_id}).second) << "device " << d.device_id << " twice";
      EXPECT_GT(d.held_milli_seconds, 0) << d.device_id;
      EXPECT_GE(d.used_milli_seconds, 0) << d.device_id;
      EXPECT_GE(d.observed_milli_seconds, 0) << d.device_id;
      EXPECT_LE(d.observed_milli_seconds, d.held_milli_seconds) << d.device_id;
      EXPECT_FALSE(d.node.empty()) << d.device_id;
      auto& [held, used, observed] = of_devices[{hour, d.cluster, d.model}];
      held += d.held_milli_seconds;
      used += d.used_milli_seconds;
      observed += d.observed_milli_seconds;
    }
    // A cell whose lines held nothing has no device; every other is the same.
    for (auto it = of_lines.begin(); it != of_lines.end();) {
      it = std::get<0>(it->second) == 0 ? of_lines.erase(it) : std::next(it);
    }
    EXPECT_EQ(of_devices, of_lines);
  }
}

bool SameLine(const ChargeLine& a, const ChargeLine& b) {
  return std::tie(a.hour, a.cluster, a.team, a.namespace_name, a.workload, a.model, a.line_kind, a.held_milli_seconds,
                  a.used_milli_seconds, a.observed_milli_seconds, a.direct_cost_micro, a.idle_cost_micro,
                  a.shared_cost_micro, a.total_cost_micro, a.no_telemetry) ==
         std::tie(b.hour, b.cluster, b.team, b.namespace_name, b.workload, b.model, b.line_kind, b.held_milli_seconds,
                  b.used_milli_seconds, b.observed_milli_seconds, b.direct_cost_micro, b.idle_cost_micro,
                  b.shared_cost_micro, b.total_cost_micro, b.no_telemetry);
}

TEST(AttributionProperties, TheLinesDependOnTheFactsNotOnTheOrderTheyWereReadIn) {
  for (uint64_t seed = 1; seed <= kFleets; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const Fleet f = RandomFleet(seed);
    Fleet shuffled = f;
    std::mt19937_64 rng(seed);
    std::shuffle(shuffled.input.devices.begin(), shuffled.input.devices.end(), rng);
    std::shuffle(shuffled.input.holds.begin(), shuffled.input.holds.end(), rng);
    std::shuffle(shuffled.input.usage.begin(), shuffled.input.usage.end(), rng);
    std::shuffle(shuffled.input.prices.begin(), shuffled.input.prices.end(), rng);
    const AttributedHours a = AttributeFleet(f);
    const AttributedHours b = AttributeFleet(shuffled);
    ASSERT_EQ(a.lines.size(), b.lines.size());
    for (size_t i = 0; i < a.lines.size(); ++i) EXPECT_TRUE(SameLine(a.lines[i], b.lines[i])) << "line " << i;
    EXPECT_EQ(a.report.over_held.size(), b.report.over_held.size());
  }
}

// vision's whole charge over the window, and how many lines it is on.
std::pair<int64_t, int64_t> VisionCharge(const AttributedHours& run) {
  std::pair<int64_t, int64_t> out{0, 0};
  for (const ChargeLine& l : run.lines) {
    if (l.team != "vision") continue;
    out.first += l.total_cost_micro;
    ++out.second;
  }
  return out;
}

// Exactly, a team's charge never falls when one of its holds grows (longer
// or larger). Each line is rounded once from its exact share, by less than a
// micro-unit either way, so the rounded sum may fall by at most one
// micro-unit per line before and after (largest remainder is not
// population-monotone), never more.
TEST(AttributionProperties, AChargeNeverFallsWhenAHoldGrows) {
  int grown = 0, rose = 0;
  for (uint64_t seed = 1; seed <= kFleets; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const Fleet f = RandomFleet(seed);
    // Namespace cv is vision's under both policy versions.
    for (size_t h = 0; h < f.input.holds.size(); ++h) {
      if (f.input.holds[h].namespace_name != "cv") continue;
      for (int how = 0; how < 2; ++how) {
        Fleet bigger = f;
        HoldFact& hold = bigger.input.holds[h];
        if (how == 0) {
          hold.to += absl::Seconds(60 + static_cast<int64_t>(seed * 97 % 3600));
        } else if (hold.milli < 1000) {
          hold.milli += 1 + static_cast<int64_t>(seed * 31 % static_cast<uint64_t>(1000 - hold.milli));
        } else {
          continue;
        }
        const auto before = VisionCharge(AttributeFleet(f));
        const auto after = VisionCharge(AttributeFleet(bigger));
        EXPECT_GE(after.first, before.first - (before.second + after.second))
            << "hold " << h << (how == 0 ? " longer" : " larger") << ": " << before.first << " -> " << after.first;
        ++grown;
        if (after.first > before.first) ++rose;
      }
    }
  }
  // The fleets did exercise it. Growth often costs nothing more (vision
  // already pays all of a cell's idle, the extra time is out of service),
  // but often it does.
  EXPECT_GT(grown, 300);
  EXPECT_GT(rose, 150) << rose << " of " << grown;
}

TEST(AttributionProperties, EveryLineIsExplainedAndItsExplanationAddsUpToIt) {
  for (uint64_t seed = 1; seed <= kFleets; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const Fleet f = RandomFleet(seed);
    FleetPolicies policies(f);
    PolicyTimelineTeams teams(policies.timeline, {});
    ExpectEveryLineExplained(f.input, teams, AttributeFleet(f).lines);
  }
}

}  // namespace
}  // namespace fleetcap::attribution

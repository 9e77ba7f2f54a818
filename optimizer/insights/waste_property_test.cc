// Properties over random pods (seeded, so every run checks the same ones):
// holds of whole and fractional devices starting and ending at any second,
// readings with gaps, prices changing at any second and per cluster, and
// random thresholds. SM activity is not in the published telemetry: these
// readings make it up for a share of the minutes.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "optimizer/insights/waste.h"
#include "optimizer/insights/waste_summary.h"

namespace fleetcap::insights {
namespace {

__extension__ typedef __int128 WideCost;

const absl::Time kWasteStart = absl::FromUnixSeconds(1767571200);  // 2026-01-05T00:00:00Z
const absl::Time kWasteEnd = kWasteStart + absl::Hours(6);
const absl::Time kWasteHistory = kWasteStart - absl::Hours(2);

class WasteRandom {
 public:
  explicit WasteRandom(uint64_t seed) : rng_(seed) {}
  int64_t In(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  absl::Time At(absl::Time from, absl::Time to) { return from + absl::Seconds(In(0, absl::ToInt64Seconds(to - from))); }

 private:
  std::mt19937_64 rng_;
};

policy::Price PriceOf(const std::string& cluster, absl::Time from, std::optional<absl::Time> to, int64_t micro) {
  policy::Price p;
  p.model = "A100";
  p.cluster = cluster;
  p.from = from;
  p.to = to;
  p.micro_per_device_hour = micro;
  return p;
}

WasteInput RandomInput(WasteRandom& rnd) {
  WasteInput in;
  in.start = kWasteStart;
  in.end = kWasteEnd;
  in.history_from = kWasteHistory;
  in.options.idle_for = absl::Minutes(rnd.In(1, 180));
  in.options.idle_below_basis_points = rnd.In(100, 1000);
  // Every cluster's price changes once at a random second; c2 has its own for a while.
  const absl::Time change = rnd.At(kWasteHistory, kWasteEnd);
  in.prices.push_back(PriceOf("", kWasteHistory - absl::Hours(1), change, rnd.In(1, 9999999)));
  in.prices.push_back(PriceOf("", change, std::nullopt, rnd.In(1, 9999999)));
  const absl::Time own = rnd.At(kWasteHistory, kWasteEnd);
  in.prices.push_back(PriceOf("c2", own, own + absl::Seconds(rnd.In(1, 20000)), rnd.In(1, 9999999)));
  const std::vector<int64_t> millis = {1000, 500, 428, 250, 143};
  const std::vector<double> duty = {0.0, 0.01, 0.03, 0.049, 0.05, 0.3, 0.9};
  const int pods = static_cast<int>(rnd.In(1, 6));
  for (int p = 0; p < pods; ++p) {
    const std::string cluster = rnd.In(0, 1) ? "c1" : "c2";
    const std::string pod = absl::StrCat("p", p);
    const std::string team = absl::StrCat("team", rnd.In(0, 2));
    const std::string workload = absl::StrCat("Job/w", rnd.In(0, 3));
    const int holds = static_cast<int>(rnd.In(1, 3));
    for (int h = 0; h < holds; ++h) {
      const absl::Time from = rnd.At(kWasteHistory - absl::Hours(1), kWasteEnd);
      const absl::Time to = rnd.In(0, 4) == 0 ? absl::InfiniteFuture() : rnd.At(from, kWasteEnd + absl::Hours(1));
      const std::string device = absl::StrCat("g", p, "-", h);
      const int64_t milli = millis[rnd.In(0, 4)];
      in.holds.push_back({cluster, pod, "ns", team, workload, device, "A100", milli, from, to});
      // Mostly idle, with gaps, busy spells and SM activity for some minutes.
      const int64_t busy_in = rnd.In(5, 400), unread_in = rnd.In(20, 2000);
      for (absl::Time m = kWasteHistory; m < kWasteEnd; m += absl::Minutes(1)) {
        if (rnd.In(0, unread_in) == 0) continue;
        // A reading is of the whole device: the duty cycle of the pod's share, times the share.
        std::optional<double> d = (rnd.In(0, busy_in) == 0 ? 0.9 : duty[rnd.In(0, 4)]) * milli / 1000;
        std::optional<double> sm;
        if (rnd.In(0, 3) == 0) sm = *d * 0.5;
        in.readings.push_back({cluster, pod, device, m, d, sm});
      }
    }
  }
  return in;
}

// The price in force for an A100 in `cluster` at second `t`, looked up
// directly: the cluster's own price wins.
int64_t PriceAtSecond(const WasteInput& in, const std::string& cluster, absl::Time t) {
  std::optional<int64_t> every, own;
  for (const policy::Price& p : in.prices) {
    if (t < p.from || (p.to && t >= *p.to)) continue;
    (p.cluster.empty() ? every : own) = p.micro_per_device_hour;
    if (!p.cluster.empty() && p.cluster != cluster) own.reset();
  }
  return own ? *own : every.value_or(0);
}

// The exact cost, in micro-units x 3600000, of what `pod` held over [from, to), second by second.
WideCost HeldCostBySecond(const WasteInput& in, const std::string& cluster, const std::string& pod, absl::Time from,
                          absl::Time to) {
  WideCost total = 0;
  for (const WasteHold& h : in.holds) {
    if (h.cluster != cluster || h.pod_uid != pod) continue;
    for (absl::Time t = std::max(from, h.from); t < std::min(to, h.to); t += absl::Seconds(1)) {
      total += static_cast<WideCost>(h.milli) * PriceAtSecond(in, cluster, t);
    }
  }
  return total;
}

// The activity of a reading of the whole device as the engine must judge it
// against the share held, or none.
std::optional<double> ActivityAt(const WasteInput& in, const WasteHold& h, absl::Time m) {
  for (const ActivityReading& r : in.readings) {
    if (r.cluster == h.cluster && r.pod_uid == h.pod_uid && r.device_id == h.device_id && r.minute == m) {
      const std::optional<double> device = r.sm_active ? r.sm_active : r.duty_cycle;
      if (!device) return std::nullopt;
      return *device * 1000 / static_cast<double>(h.milli);
    }
  }
  return std::nullopt;
}

void ExpectEveryMinuteOfTheRunIdle(const WasteInput& in, const IdleRun& run) {
  for (absl::Time m = run.start; m < run.end; m += absl::Minutes(1)) {
    for (const WasteHold& h : in.holds) {
      if (h.cluster != run.cluster || h.pod_uid != run.pod_uid || h.to <= m || h.from >= m + absl::Minutes(1)) continue;
      const std::optional<double> a = ActivityAt(in, h, m);
      ASSERT_TRUE(a.has_value()) << "an unread minute in a run: " << m;
      EXPECT_LT(*a * 10000, static_cast<double>(in.options.idle_below_basis_points)) << m;
    }
  }
}

void ExpectRunsWithin(const WasteInput& in, const std::vector<IdleRun>& runs) {
  std::map<std::pair<std::string, std::string>, absl::Time> last_end;
  for (const IdleRun& r : runs) {
    SCOPED_TRACE(absl::StrCat(r.cluster, "/", r.pod_uid, " ", absl::FormatTime(r.start)));
    EXPECT_GE(r.end - r.run_start, in.options.idle_for);
    EXPECT_LE(r.wasted_milli_seconds, r.devices_milli * absl::ToInt64Seconds(r.end - r.start));
    auto [it, first] = last_end.try_emplace({r.cluster, r.pod_uid}, r.end);
    if (!first) {
      EXPECT_LT(it->second, r.start) << "runs of one pod overlap or touch";
      it->second = r.end;
    }
    IdleRun sums;
    for (const RunPiece& p : r.pieces) {
      // Never more than the held cost of the same time, rounded up.
      const WideCost held = HeldCostBySecond(in, r.cluster, r.pod_uid, p.start, p.end);
      EXPECT_LE(p.wasted_cost_micro, static_cast<int64_t>((held + 3599999) / 3600000));
      EXPECT_GE(p.wasted_cost_micro, 0);
      sums.wasted_milli_seconds += p.wasted_milli_seconds;
      sums.wasted_cost_micro += p.wasted_cost_micro;
    }
    EXPECT_EQ(r.wasted_milli_seconds, sums.wasted_milli_seconds);
    EXPECT_EQ(r.wasted_cost_micro, sums.wasted_cost_micro);
    if (r.run_start == r.start) {
      const WideCost held = HeldCostBySecond(in, r.cluster, r.pod_uid, r.start, r.end);
      EXPECT_EQ(r.wasted_cost_micro, static_cast<int64_t>((held + 1800000) / 3600000)) << "a whole run, rounded once";
    }
    ExpectEveryMinuteOfTheRunIdle(in, r);
  }
}

void ExpectTotalsAreSums(const WasteFacts& facts, const WasteSummary& s) {
  int64_t wasted = 0, cost = 0, held = 0;
  for (const IdleRun& r : facts.runs) {
    wasted += r.wasted_milli_seconds;
    cost += r.wasted_cost_micro;
  }
  for (const WorkloadHour& h : facts.workload_hours) held += h.held_milli_seconds;
  EXPECT_EQ(s.fleet.wasted_milli_seconds, wasted);
  EXPECT_EQ(s.fleet.wasted_cost_micro, cost);
  EXPECT_EQ(s.fleet.held_milli_seconds, held);
  WasteTally teams, workloads;
  for (const TeamWaste& t : s.teams) teams.Add(t.tally);
  for (const WorkloadWaste& w : s.workloads) {
    workloads.Add(w.tally);
    int64_t run_cost = 0;
    for (const IdleRun& r : w.runs) run_cost += r.wasted_cost_micro;
    EXPECT_EQ(w.tally.wasted_cost_micro, run_cost);
    EXPECT_LE(w.tally.wasted_milli_seconds, w.tally.observed_milli_seconds) << w.workload;
    EXPECT_LE(w.tally.observed_milli_seconds, w.tally.held_milli_seconds) << w.workload;
    EXPECT_LE(w.tally.active_milli_seconds, w.tally.observed_milli_seconds) << w.workload;
  }
  EXPECT_EQ(teams.wasted_cost_micro, cost);
  EXPECT_EQ(workloads.wasted_cost_micro, cost);
  EXPECT_EQ(teams.held_milli_seconds, held);
  EXPECT_GE(s.fleet.Efficiency(), 0);
  EXPECT_LE(s.fleet.Efficiency(), 1);
}

TEST(WasteProperties, RunsAreIdleDisjointNeverDearerThanHeldAndTotalsAreTheirSums) {
  int64_t runs_seen = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    WasteRandom rnd(seed);
    const WasteInput in = RandomInput(rnd);
    absl::StatusOr<WasteFacts> facts = FindWaste(in);
    ASSERT_TRUE(facts.ok()) << facts.status();
    runs_seen += static_cast<int64_t>(facts->runs.size());
    ExpectRunsWithin(in, facts->runs);
    ExpectTotalsAreSums(*facts, Summarize(*facts));
  }
  EXPECT_GT(runs_seen, 20) << "the random pods should find runs to check";
}

// What the store keeps (a piece a pod and hour) joins back into the runs found.
TEST(WasteProperties, RunsSplitIntoTheirPiecesJoinBackWhole) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    WasteRandom rnd(seed);
    absl::StatusOr<WasteFacts> facts = FindWaste(RandomInput(rnd));
    ASSERT_TRUE(facts.ok()) << facts.status();
    std::vector<IdleRun> pieces;
    for (const IdleRun& r : facts->runs) {
      for (const RunPiece& p : r.pieces) {
        IdleRun one = r;
        one.start = p.start;
        one.end = p.end;
        one.devices_milli = p.devices_milli;
        one.wasted_milli_seconds = p.wasted_milli_seconds;
        one.wasted_cost_micro = p.wasted_cost_micro;
        one.activity_milli_seconds = p.activity_milli_seconds;
        one.sm_milli_seconds = p.sm_milli_seconds;
        one.pieces = {p};
        pieces.push_back(one);
      }
    }
    const std::vector<IdleRun> joined = JoinRuns(pieces);
    ASSERT_EQ(joined.size(), facts->runs.size());
    for (size_t i = 0; i < joined.size(); ++i) {
      EXPECT_EQ(joined[i].start, facts->runs[i].start);
      EXPECT_EQ(joined[i].end, facts->runs[i].end);
      EXPECT_EQ(joined[i].devices_milli, facts->runs[i].devices_milli);
      EXPECT_EQ(joined[i].wasted_cost_micro, facts->runs[i].wasted_cost_micro);
      EXPECT_EQ(joined[i].Signal(), facts->runs[i].Signal());
    }
  }
}

// Runs are looked for from the history given, but the readings are indexed
// from the first one: a history from 1970 finds what one from the window's
// start finds, at no cost.
TEST(WasteProperties, AHistoryFromLongBeforeTheReadingsFindsTheSame) {
  WasteRandom rnd(7);
  WasteInput in = RandomInput(rnd);
  absl::StatusOr<WasteFacts> near = FindWaste(in);
  in.history_from = absl::UnixEpoch();
  absl::StatusOr<WasteFacts> far = FindWaste(in);
  ASSERT_TRUE(near.ok() && far.ok());
  ASSERT_EQ(near->runs.size(), far->runs.size());
  for (size_t i = 0; i < near->runs.size(); ++i) {
    EXPECT_EQ(near->runs[i].wasted_cost_micro, far->runs[i].wasted_cost_micro);
  }
}

TEST(WasteProperties, AWindowNotOfWholeHoursIsRefused) {
  WasteInput in;
  in.start = kWasteStart + absl::Minutes(1);
  in.end = kWasteEnd;
  in.history_from = in.start;
  EXPECT_EQ(FindWaste(in).status().code(), absl::StatusCode::kInvalidArgument);
  in.start = kWasteStart;
  in.history_from = kWasteStart + absl::Minutes(1);
  EXPECT_EQ(FindWaste(in).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::insights

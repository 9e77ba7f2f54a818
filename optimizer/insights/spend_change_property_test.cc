// Properties over random windows (seeded, so every run checks the same
// ones): the drivers add up to the change; started, ended, idle share and
// shared and fixed are what the lines say, computed here apart from the
// engine, and the three drivers of the direct cost add up to its change;
// swapping the windows negates every driver and contribution; the order of
// the lines changes nothing.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "optimizer/insights/spend_change.h"

namespace fleetcap::insights {
namespace {

class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed) {}
  int64_t In(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  const std::string& Of(const std::vector<std::string>& v) { return v[static_cast<size_t>(In(0, v.size() - 1))]; }
  std::mt19937_64& Engine() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

const std::vector<std::string> kTeams = {"vision", "speech", "ranking"};
const std::vector<std::string> kNamespaces = {"cv", "asr"};
const std::vector<std::string> kWorkloads = {"train", "serve", "eval", "batch"};
const std::vector<std::string> kModels = {"A100", "H100", "T4"};
const std::vector<std::string> kClusters = {"c1", "c2"};
const std::vector<std::string> kKinds = {"workload", "workload", "workload", "workload", "idle", "shared", "fixed"};

// Up to 40 lines over a few keys (some repeated, so keys are summed), with
// held time from a second to a year of a thousand devices (some none), and
// direct cost at one of a few prices a device-hour, give or take a few
// micro-units of rounding (some of it without held time).
std::vector<SpendLine> RandomWindow(Random& r) {
  const std::vector<int64_t> prices = {1'000'000, 2'500'000, 7'000'000, 8'000'000};
  std::vector<SpendLine> lines;
  const int64_t n = r.In(0, 40);
  for (int64_t i = 0; i < n; ++i) {
    SpendLine l{r.Of(kTeams), r.Of(kNamespaces), r.Of(kWorkloads), r.Of(kModels), r.Of(kClusters), r.Of(kKinds)};
    const int64_t scale = r.In(0, 2) == 0 ? 1'000'000 : 31'536'000'000'000;
    l.held_milli_seconds = r.In(0, 4) == 0 ? 0 : r.In(1000, scale);
    const int64_t price = prices[static_cast<size_t>(r.In(0, prices.size() - 1))];
    l.direct_cost_micro = r.In(0, 9) == 0
                              ? r.In(0, 1000)
                              : std::max<int64_t>(0, __int128(l.held_milli_seconds) * price / 3'600'000 + r.In(-3, 3));
    l.idle_cost_micro = r.In(0, 2) == 0 ? 0 : r.In(1, scale);
    l.shared_cost_micro = r.In(0, 2) == 0 ? 0 : r.In(1, scale);
    l.total_cost_micro = l.direct_cost_micro + l.idle_cost_micro + l.shared_cost_micro;
    lines.push_back(l);
  }
  return lines;
}

int64_t DriverOf(const SpendChange& c, const std::string& name) {
  for (const SpendDriver& d : c.drivers) {
    if (d.name == name) return d.change_micro;
  }
  ADD_FAILURE() << "no driver " << name;
  return 0;
}

// The drivers that are sums of whole micro-units, from the lines alone.
struct WholeDrivers {
  int64_t started = 0, ended = 0, idle_share = 0, shared_and_fixed = 0, direct_of_both = 0;
};

WholeDrivers Independently(const std::vector<SpendLine>& before, const std::vector<SpendLine>& after) {
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::array<int64_t, 4>> sides[2];  // present, direct, idle, shared
  WholeDrivers w;
  for (int s = 0; s < 2; ++s) {
    const int sign = s == 0 ? -1 : 1;
    for (const SpendLine& l : s == 0 ? before : after) {
      if (l.line_kind == "idle") w.idle_share += sign * l.total_cost_micro;
      if (l.line_kind == "shared" || l.line_kind == "fixed") w.shared_and_fixed += sign * l.total_cost_micro;
      if (l.line_kind != "workload") continue;
      auto& side = sides[s][{l.team, l.namespace_name, l.workload}];
      side[0] |= l.held_milli_seconds != 0 || l.total_cost_micro != 0 || l.direct_cost_micro != 0;
      side[1] += l.direct_cost_micro;
      side[2] += l.idle_cost_micro;
      side[3] += l.shared_cost_micro;
    }
  }
  std::set<Key> keys;
  for (const auto& side : sides) {
    for (const auto& [key, v] : side) keys.insert(key);
  }
  for (const Key& key : keys) {
    const std::array<int64_t, 4> b = sides[0][key], a = sides[1][key];
    if (b[0] && a[0]) {
      w.direct_of_both += a[1] - b[1];
      w.idle_share += a[2] - b[2];
      w.shared_and_fixed += a[3] - b[3];
    } else if (a[0]) {
      w.started += a[1] + a[2] + a[3];
    } else if (b[0]) {
      w.ended -= b[1] + b[2] + b[3];
    }
  }
  return w;
}

int64_t Total(const std::vector<SpendLine>& lines) {
  int64_t total = 0;
  for (const SpendLine& l : lines) total += l.total_cost_micro;
  return total;
}

TEST(SpendChangeProperties, TheDriversAddUpToTheChangeAndTheWholeOnesAreWhatTheLinesSay) {
  Random r(33);
  for (int round = 0; round < 400; ++round) {
    SCOPED_TRACE(round);
    const std::vector<SpendLine> before = RandomWindow(r), after = RandomWindow(r);
    absl::StatusOr<SpendChange> got = ExplainSpendChange(before, after, 5);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(got->previous_cost_micro, Total(before));
    EXPECT_EQ(got->current_cost_micro, Total(after));
    EXPECT_EQ(got->change_micro, Total(after) - Total(before));
    int64_t sum = 0;
    for (const SpendDriver& d : got->drivers) sum += d.change_micro;
    EXPECT_EQ(sum, got->change_micro);
    const WholeDrivers w = Independently(before, after);
    EXPECT_EQ(DriverOf(*got, "started"), w.started);
    EXPECT_EQ(DriverOf(*got, "ended"), w.ended);
    EXPECT_EQ(DriverOf(*got, "idle_share"), w.idle_share);
    EXPECT_EQ(DriverOf(*got, "shared_and_fixed"), w.shared_and_fixed);
    EXPECT_EQ(DriverOf(*got, "held_time") + DriverOf(*got, "model_mix") + DriverOf(*got, "price"), w.direct_of_both);
  }
}

// Swapped, what started ended: started and ended trade places.
size_t Swapped(size_t d) { return d == 0 ? 1 : d == 1 ? 0 : d; }

TEST(SpendChangeProperties, SwappingTheWindowsNegatesEveryDriverAndContribution) {
  Random r(34);
  for (int round = 0; round < 400; ++round) {
    SCOPED_TRACE(round);
    const std::vector<SpendLine> before = RandomWindow(r), after = RandomWindow(r);
    absl::StatusOr<SpendChange> forward = ExplainSpendChange(before, after, 100);
    absl::StatusOr<SpendChange> back = ExplainSpendChange(after, before, 100);
    ASSERT_TRUE(forward.ok() && back.ok());
    EXPECT_EQ(back->change_micro, -forward->change_micro);
    ASSERT_EQ(std::string(kSpendDrivers[0]) + kSpendDrivers[1], "startedended");
    for (size_t d = 0; d < kSpendDriverCount; ++d) {
      SCOPED_TRACE(kSpendDrivers[d]);
      EXPECT_EQ(back->drivers[Swapped(d)].change_micro, -forward->drivers[d].change_micro);
      SpendDriver negated = forward->drivers[d];
      for (SpendContribution& c : negated.top) c.change_micro = -c.change_micro;
      EXPECT_EQ(back->drivers[Swapped(d)].top, negated.top);
    }
  }
}

TEST(SpendChangeProperties, TheOrderOfTheLinesChangesNothing) {
  Random r(35);
  for (int round = 0; round < 400; ++round) {
    SCOPED_TRACE(round);
    std::vector<SpendLine> before = RandomWindow(r), after = RandomWindow(r);
    absl::StatusOr<SpendChange> first = ExplainSpendChange(before, after, 3);
    std::shuffle(before.begin(), before.end(), r.Engine());
    std::shuffle(after.begin(), after.end(), r.Engine());
    absl::StatusOr<SpendChange> shuffled = ExplainSpendChange(before, after, 3);
    ASSERT_TRUE(first.ok() && shuffled.ok());
    EXPECT_EQ(*shuffled, *first);
  }
}

}  // namespace
}  // namespace fleetcap::insights

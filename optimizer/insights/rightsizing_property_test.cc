// Properties of rightsizing over random fleets: a recommendation always
// saves (never nothing, never a negative amount), never saves more than the
// workload costs, a resize never proposes more than is held, and a workload
// without telemetry gets nothing.

#include <gtest/gtest.h>

#include <random>

#include "absl/strings/str_cat.h"
#include "optimizer/insights/rightsizing.h"

namespace fleetcap::insights {
namespace {

const absl::Time kStart = absl::FromUnixSeconds(1772323200);  // 2026-03-01T00:00:00Z
const char* const kModels[] = {"A100-SXM4-40GB", "A100-SXM4-80GB", "H100-SXM5-80GB", "T4"};

policy::PolicyDocument RandomPolicy(std::mt19937_64& rng) {
  policy::PolicyDocument p;
  policy::Team team;
  team.name = "t";
  team.workload_class = "cls";
  p.teams.push_back(team);
  p.insights.idle_below_basis_points = static_cast<int64_t>(rng() % 3000);
  p.insights.memory_headroom_percent = static_cast<int64_t>(rng() % 100);
  for (const char* model : kModels) {
    const int64_t price = 1 + static_cast<int64_t>(rng() % 9000000);
    policy::Price price_of_model;
    price_of_model.model = model;
    price_of_model.from = kStart - absl::Hours(24 * 30);
    price_of_model.micro_per_device_hour = price;
    p.prices.push_back(price_of_model);
    policy::Flavor f;
    f.name = absl::StrCat("f-", model);
    f.model = model;
    p.flavors.push_back(f);
    policy::Throughput throughput;
    throughput.workload_class = "cls";
    throughput.flavor = f.name;
    throughput.micro = 1 + static_cast<int64_t>(rng() % 10000000);
    p.throughput.push_back(throughput);
  }
  return p;
}

WorkloadFacts RandomWorkload(std::mt19937_64& rng, int index, absl::Duration lookback) {
  WorkloadFacts w{"c1", "t", "ns", absl::StrCat("Job/w", index), kModels[rng() % 4], {}, {}};
  const int64_t shares[] = {1000, 1000, 428, 285, 142, 250, 500};
  const int64_t milli = shares[rng() % 7];
  const int pods = 1 + static_cast<int>(rng() % 3);
  const int devices = 1 + static_cast<int>(rng() % 4);
  const int64_t minutes = absl::ToInt64Minutes(lookback);
  for (int p = 0; p < pods; ++p) {
    for (int d = 0; d < devices; ++d) {
      const std::string pod = absl::StrCat("p", p), device = absl::StrCat("g", p, "-", d);
      const absl::Time from = kStart + absl::Minutes(static_cast<int64_t>(rng() % minutes));
      const absl::Time to = rng() % 2 ? absl::InfiniteFuture() : from + absl::Minutes(1 + rng() % minutes);
      w.holds.push_back({pod, device, milli, from, to});
      const double level = static_cast<double>(rng() % 1000) / 1000;
      for (int64_t m = 0; m < minutes; ++m) {
        if (rng() % 10 == 0) continue;  // a minute unread
        const double activity = std::min(1.0, level * static_cast<double>(rng() % 200) / 100);
        std::optional<double> sm;
        if (rng() % 3 == 0) sm = activity / 2;
        w.minutes.push_back({pod, device, kStart + absl::Minutes(m), activity, sm,
                             static_cast<int64_t>(rng() % 90'000'000'000), int64_t{80'000'000'000}});
      }
    }
  }
  return w;
}

TEST(RightsizingProperties, SavingsArePositiveBoundedByTheCostAndResizesNeverGrow) {
  std::mt19937_64 rng(33);
  int recommended = 0;
  for (int round = 0; round < 60; ++round) {
    const policy::PolicyDocument policy = RandomPolicy(rng);
    const absl::Duration lookback = absl::Minutes(30 + rng() % 300);
    RightsizingInput in{kStart, kStart + lookback, {}};
    for (int i = 0; i < 6; ++i) in.workloads.push_back(RandomWorkload(rng, i, lookback));
    for (const Recommendation& r : Rightsize(in, policy)) {
      SCOPED_TRACE(r.kind + ": " + r.evidence);
      ++recommended;
      int64_t price = 0;
      for (const policy::Price& p : policy.prices) {
        if (p.model == r.model) price = p.micro_per_device_hour;
      }
      EXPECT_GT(r.savings_micro_per_month, 0);
      // Never more than all it costs a month (plus the half a micro-unit of rounding).
      EXPECT_LE(r.savings_micro_per_month * 1000, r.current_milli * price * kHoursPerMonth + 500);
      if (r.kind != "cheaper_flavor") {
        EXPECT_LT(r.proposed_milli, r.current_milli);
      }
      EXPECT_GE(r.proposed_milli, 0);
      EXPECT_GT(r.observed_minutes, 0);
      EXPECT_LE(r.observed_minutes, absl::ToInt64Minutes(lookback));
      EXPECT_EQ(r.confidence, ConfidenceOf(r.observed_minutes));
    }
    for (WorkloadFacts& w : in.workloads) w.minutes.clear();
    EXPECT_TRUE(Rightsize(in, policy).empty()) << "a workload without telemetry got a recommendation";
  }
  EXPECT_GT(recommended, 20);  // the properties were exercised
}

TEST(RightsizingProperties, TheLargestSavingComesFirst) {
  std::mt19937_64 rng(7);
  const policy::PolicyDocument policy = RandomPolicy(rng);
  RightsizingInput in{kStart, kStart + absl::Hours(3), {}};
  for (int i = 0; i < 20; ++i) in.workloads.push_back(RandomWorkload(rng, i, absl::Hours(3)));
  const std::vector<Recommendation> got = Rightsize(in, policy);
  ASSERT_GT(got.size(), 2u);
  for (size_t i = 1; i < got.size(); ++i) EXPECT_GE(got[i - 1].savings_micro_per_month, got[i].savings_micro_per_month);
}

}  // namespace
}  // namespace fleetcap::insights

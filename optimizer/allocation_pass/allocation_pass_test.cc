#include "optimizer/allocation_pass/allocation_pass.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "optimizer/allocation/offline_solver.h"
#include "optimizer/chargeback/policy_timeline_source.h"
#include "store/memory_allocation_run_repository.h"
#include "store/memory_demand_history_repository.h"
#include "store/memory_team_facts_repository.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::optimizer {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

const absl::Time kStart = absl::FromUnixSeconds(1'767'225'600);  // 2026-01-01T00:00:00Z

// Two labs share 10 H100s; ml belongs to vision, speech-* to speech. No
// headroom: the demand the engine is given is the measured demand itself
// (ThePolicysHeadroomIsAddedToTheMeasuredDemand below has some).
constexpr const char* kPolicy = R"(version: 1
demand_headroom_percent: 0
teams:
  - name: vision
  - name: speech
namespaces:
  - namespace: ml
    team: vision
  - pattern: "speech-*"
    team: speech
flavors:
  - name: h100
    model: H100
    capacity: 10
allocation:
  - team: speech
    flavor: h100
    guarantee: 2
)";

class AllocationPassTest : public ::testing::Test {
 protected:
  AllocationPassTest()
      : clock_(kStart + absl::Hours(10) + absl::Minutes(30)),
        policies_(chargeback::PoliciesOf(&teams_)),
        pass_({&history_, &teams_, &policies_, &runs_}, Options(), &clock_) {}

  static AllocationPassOptions Options() {
    AllocationPassOptions o;
    o.demand.lookback = absl::Hours(4);
    o.demand.percentile = 100;
    o.demand.trend_horizon = absl::ZeroDuration();
    o.interval = absl::Hours(1);
    return o;
  }

  // `milli` of `model` held over the whole hour starting `hour`.
  void Held(const std::string& team, absl::Time hour, int64_t milli, const std::string& model = "H100") {
    history_.AddHeld({"c1", model, team, hour, milli * 3600});
  }

  // The latest run's recommendations equal SolveOffline's for `policy` and
  // `demand_yaml` (team, flavor, demand, result, bound_by, explanation).
  void ExpectLatestEqualsOffline(const std::string& policy, const std::string& demand_yaml, bool heterogeneity) {
    allocation::SolverInput input{"policy", policy, "demand", demand_yaml};
    input.heterogeneity = heterogeneity;
    auto expected = allocation::SolveOffline(input);
    ASSERT_THAT(expected, IsOk());
    const store::AllocationRunRecord run = Latest();
    ASSERT_EQ(run.recommendations.size(), expected->size());
    for (size_t i = 0; i < expected->size(); ++i) {
      const auto& want = (*expected)[i];
      const auto& got = run.recommendations[i];
      EXPECT_EQ(got.team, want.team);
      EXPECT_EQ(got.flavor, want.flavor);
      EXPECT_EQ(got.demand_milli, want.demand_milli);
      EXPECT_EQ(got.recommended_milli, want.recommended_milli) << got.team << " on " << got.flavor;
      EXPECT_EQ(got.bound_by, want.bound_by);
      EXPECT_THAT(got.explanation, HasSubstr(want.explanation));
    }
  }

  store::AllocationRunRecord Latest() {
    auto latest = runs_.LatestRun();
    EXPECT_THAT(latest, IsOk());
    return latest.ok() && latest->has_value() ? **latest : store::AllocationRunRecord{};
  }

  SimulatedClock clock_;
  store::MemoryTeamFactsRepository teams_;
  policy::PolicyTimeline policies_;
  store::MemoryDemandHistoryRepository history_;
  store::MemoryAllocationRunRepository runs_;
  AllocationPass pass_;
};

TEST_F(AllocationPassTest, StoresTheEnginesResultForTheMeasuredDemand) {
  teams_.Apply(kPolicy, kStart);
  const absl::Time watermark = kStart + absl::Hours(10);
  Held("vision", watermark - absl::Hours(2), 9000);
  Held("vision", watermark - absl::Hours(1), 7000);
  Held("speech", watermark - absl::Hours(1), 1000);
  // A speech pod waits half an hour for 2 H100s: half of its request counts.
  history_.AddPending(
      {"c1", "uid-s", "speech-asr", "", "nvidia.com/gpu", "H100", 2000, clock_.Now() - absl::Minutes(30)});
  auto report = pass_.Run(watermark);
  ASSERT_THAT(report, IsOk());
  ASSERT_TRUE(report->run_id.has_value());

  // The same problem solved offline: vision 9 and speech 1 + 1 pending.
  allocation::SolverInput input{"policy", kPolicy, "demand",
                                "demand:\n  - {team: vision, flavor: h100, devices: 9}\n"
                                "  - {team: speech, flavor: h100, devices: 2}\n"};
  auto expected = allocation::SolveOffline(input);
  ASSERT_THAT(expected, IsOk());
  const store::AllocationRunRecord run = Latest();
  EXPECT_EQ(run.policy_version, 1);
  EXPECT_EQ(run.computed_at, clock_.Now());
  EXPECT_EQ(run.inputs_json, pass_.InputsJson(1, watermark, allocation::AllocationEngine::kWaterFilling));
  EXPECT_THAT(run.inputs_json, HasSubstr("\"engine\":\"water_filling\""));
  EXPECT_THAT(run.inputs_json, HasSubstr("\"chargeback_watermark\":\"2026-01-01T10:00:00Z\""));
  ASSERT_EQ(run.recommendations.size(), expected->size());
  for (size_t i = 0; i < expected->size(); ++i) {
    const auto& want = (*expected)[i];
    const auto& got = run.recommendations[i];
    EXPECT_EQ(got.team, want.team);
    EXPECT_EQ(got.demand_milli, want.demand_milli);
    EXPECT_EQ(got.recommended_milli, want.recommended_milli);
    EXPECT_EQ(got.bound_by, want.bound_by);
    EXPECT_THAT(got.explanation, HasSubstr(want.explanation));
  }
  EXPECT_EQ(run.recommendations[0].team, "speech");
  EXPECT_THAT(run.recommendations[0].explanation,
              HasSubstr("p100 held 1.000 + trend 0.000 + pending 1.000 (1 pod, longest 30m) = 2.000 devices; "));
}

TEST_F(AllocationPassTest, ThePolicysHeadroomIsAddedToTheMeasuredDemandWhichIsKeptBesideIt) {
  // The policy's default headroom, 20%.
  const std::string policy = absl::StrReplaceAll(kPolicy, {{"demand_headroom_percent: 0\n", ""}});
  teams_.Apply(policy, kStart);
  const absl::Time watermark = kStart + absl::Hours(10);
  Held("vision", watermark - absl::Hours(1), 5000);
  // A speech pod has waited an hour for 1 H100: it counts in full, headroom included.
  history_.AddPending({"c1", "uid-s", "speech-asr", "", "nvidia.com/gpu", "H100", 1000, clock_.Now() - absl::Hours(1)});
  ASSERT_THAT(pass_.Run(watermark), IsOk());
  const store::AllocationRunRecord run = Latest();
  ASSERT_EQ(run.recommendations.size(), 2u);
  const auto& speech = run.recommendations[0];
  const auto& vision = run.recommendations[1];
  EXPECT_EQ(speech.measured_demand_milli, 1000);
  EXPECT_EQ(speech.demand_milli, 1200);
  EXPECT_EQ(vision.measured_demand_milli, 5000);
  EXPECT_EQ(vision.demand_milli, 6000);
  EXPECT_THAT(vision.explanation, HasSubstr("= 5.000 devices; + 20% headroom 1.000 = 6.000 devices; "));
  // The quotas are the engine's for the demand with headroom, in whole H100s.
  ExpectLatestEqualsOffline(policy,
                            "demand:\n  - {team: vision, flavor: h100, devices: 6}\n"
                            "  - {team: speech, flavor: h100, devices: 1.2}\n",
                            /*heterogeneity=*/false);
  EXPECT_EQ(vision.recommended_milli, 6000);
  EXPECT_EQ(speech.recommended_milli, 2000);  // its guarantee 2, of which 1.2 in use, rounded up
}

TEST_F(AllocationPassTest, NothingChangedStoresNothingUntilTheIntervalPasses) {
  teams_.Apply(kPolicy, kStart);
  const absl::Time watermark = kStart + absl::Hours(10);
  Held("vision", watermark - absl::Hours(1), 3000);
  ASSERT_THAT(pass_.Run(watermark), IsOk());
  auto again = pass_.Run(watermark);
  ASSERT_THAT(again, IsOk());
  EXPECT_FALSE(again->run_id.has_value());
  EXPECT_EQ(again->skipped, "unchanged");

  // The watermark moves: a new run.
  auto moved = pass_.Run(watermark + absl::Hours(1));
  ASSERT_THAT(moved, IsOk());
  EXPECT_EQ(moved->run_id, 2);
  // A new policy version: a new run.
  teams_.Apply(absl::StrReplaceAll(kPolicy, {{"guarantee: 2", "guarantee: 3"}}), clock_.Now());
  auto repolicied = pass_.Run(watermark + absl::Hours(1));
  ASSERT_THAT(repolicied, IsOk());
  EXPECT_EQ(repolicied->run_id, 3);
  EXPECT_EQ(Latest().policy_version, 2);
  // The interval passes with nothing else changed: a new run (pending pods wait longer).
  clock_.Advance(absl::Hours(1));
  auto later = pass_.Run(watermark + absl::Hours(1));
  ASSERT_THAT(later, IsOk());
  EXPECT_EQ(later->run_id, 4);
}

TEST_F(AllocationPassTest, NoPolicyNoRun) {
  auto report = pass_.Run(std::nullopt);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->skipped, "no policy");
  auto latest = runs_.LatestRunId();
  ASSERT_THAT(latest, IsOk());
  EXPECT_FALSE(latest->has_value());
}

TEST_F(AllocationPassTest, ARuleWithoutDemandIsRecommendedAndSaysSo) {
  teams_.Apply(kPolicy, kStart);
  ASSERT_THAT(pass_.Run(std::nullopt), IsOk());
  const store::AllocationRunRecord run = Latest();
  ASSERT_EQ(run.recommendations.size(), 1u);
  EXPECT_EQ(run.recommendations[0].team, "speech");
  EXPECT_EQ(run.recommendations[0].demand_milli, 0);
  EXPECT_THAT(run.recommendations[0].explanation, HasSubstr("no demand measured; "));
  EXPECT_THAT(run.inputs_json, HasSubstr("\"chargeback_watermark\":null"));
}

TEST_F(AllocationPassTest, PendingPodsAreResolvedWithTheNamespaceEvidence) {
  teams_.Apply(absl::StrCat(kPolicy, "team_label_keys: [fleetcap.io/team]\n"), kStart);
  store::NamespaceLabels ns;
  ns.name = "shared";
  ns.labels = {{"fleetcap.io/team", "vision"}};
  teams_.AddNamespace("c1", ns);
  history_.AddPending({"c1", "uid-v", "shared", "", "nvidia.com/gpu", "H100", 4000, clock_.Now() - absl::Hours(2)});
  history_.AddPending({"c1", "uid-x", "other", "", "nvidia.com/gpu", "H100", 4000, clock_.Now() - absl::Hours(2)});
  auto report = pass_.Run(std::nullopt);
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->unplaced.pending_pods, 1);  // uid-x is unassigned's, not a team of the policy
  const store::AllocationRunRecord run = Latest();
  ASSERT_EQ(run.recommendations.size(), 2u);
  EXPECT_EQ(run.recommendations[1].team, "vision");
  EXPECT_EQ(run.recommendations[1].demand_milli, 4000);
}

// Two labs on 4 V100s and 4 K80s; vision's model runs 4x faster on a V100,
// speech's the same on both.
constexpr const char* kThroughputPolicy = R"(version: 1
demand_headroom_percent: 0
teams:
  - {name: vision, workload_class: resnet}
  - {name: speech, workload_class: lstm}
flavors:
  - {name: fast, model: V100, capacity: 4}
  - {name: slow, model: K80, capacity: 4}
throughput:
  - {class: resnet, flavor: fast, value: 4}
  - {class: resnet, flavor: slow, value: 1}
  - {class: lstm, flavor: fast, value: 2.5}
  - {class: lstm, flavor: slow, value: 2.5}
)";

// What the held hours of HoldBothFlavors measure, as a demand.yaml.
constexpr const char* kThroughputDemand = R"(demand:
  - {team: speech, flavor: fast, devices: 2}
  - {team: speech, flavor: slow, devices: 2}
  - {team: vision, flavor: fast, devices: 3}
  - {team: vision, flavor: slow, devices: 1}
)";

TEST_F(AllocationPassTest, AThroughputMatrixUsesTheHeterogeneityLpAsTheOfflineSolverDoes) {
  teams_.Apply(kThroughputPolicy, kStart);
  const absl::Time watermark = kStart + absl::Hours(10);
  Held("vision", watermark - absl::Hours(1), 3000, "V100");
  Held("vision", watermark - absl::Hours(1), 1000, "K80");
  Held("speech", watermark - absl::Hours(1), 2000, "V100");
  Held("speech", watermark - absl::Hours(1), 2000, "K80");
  auto report = pass_.Run(watermark);
  ASSERT_THAT(report, IsOk());
  ASSERT_TRUE(report->run_id.has_value());

  const store::AllocationRunRecord run = Latest();
  EXPECT_EQ(run.inputs_json, pass_.InputsJson(1, watermark, allocation::AllocationEngine::kHeterogeneity));
  EXPECT_THAT(run.inputs_json, HasSubstr("\"engine\":\"heterogeneity\""));
  ExpectLatestEqualsOffline(kThroughputPolicy, kThroughputDemand, /*heterogeneity=*/true);
  // Each lab on the flavor it gains most on (water-filling would split both flavors).
  ASSERT_EQ(run.recommendations.size(), 4u);
  EXPECT_EQ(run.recommendations[2].team, "vision");
  EXPECT_EQ(run.recommendations[2].flavor, "fast");
  EXPECT_EQ(run.recommendations[2].recommended_milli, 4000);
  EXPECT_EQ(run.recommendations[1].team, "speech");
  EXPECT_EQ(run.recommendations[1].flavor, "slow");
  EXPECT_EQ(run.recommendations[1].recommended_milli, 4000);
}

TEST_F(AllocationPassTest, AThroughputMatrixWithALeafTeamWithoutAClassStaysWithWaterFilling) {
  // The LP needs every team's class: without one for speech, the daemon
  // divides per flavor rather than fail every run.
  const std::string policy =
      absl::StrReplaceAll(kThroughputPolicy, {{"{name: speech, workload_class: lstm}", "{name: speech}"}});
  teams_.Apply(policy, kStart);
  const absl::Time watermark = kStart + absl::Hours(10);
  Held("vision", watermark - absl::Hours(1), 3000, "V100");
  Held("vision", watermark - absl::Hours(1), 1000, "K80");
  Held("speech", watermark - absl::Hours(1), 2000, "V100");
  Held("speech", watermark - absl::Hours(1), 2000, "K80");
  ASSERT_THAT(pass_.Run(watermark), IsOk());
  EXPECT_THAT(Latest().inputs_json, HasSubstr("\"engine\":\"water_filling\""));
  ExpectLatestEqualsOffline(policy, kThroughputDemand, /*heterogeneity=*/false);
}

}  // namespace
}  // namespace fleetcap::optimizer

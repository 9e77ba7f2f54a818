// fleetcap-optimizer's allocation runs: the real binary on a real
// PostgreSQL turns the chargeback it computed and the pods pending in the
// inventory into measured demand, stores the run the engine computes for
// it, and stores no second run while nothing changed.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "optimizer/allocation/offline_solver.h"
#include "policy/text_rules.h"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/build_paths.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

// vision owns ml, speech owns asr; three H100s to share, one guaranteed to speech.
constexpr const char* kAllocationPolicy = R"(version: 1
teams:
  - name: vision
  - name: speech
namespaces:
  - namespace: ml
    team: vision
  - namespace: asr
    team: speech
flavors:
  - name: h100
    model: H100
    capacity: 3
prices:
  - model: H100
    from: 2025-01-01T00:00:00Z
    per_device_hour: "3.60"
allocation:
  - team: speech
    flavor: h100
    guarantee: 1
)";

absl::Time AllocationHourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

class AllocationDaemonTest : public testing::MigratedDatabaseTest {
 protected:
  AllocationDaemonTest() : MigratedDatabaseTest(3) {}

  void SetUp() override {
    MigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    // Five whole hours of history: vision's pod holds two H100s throughout,
    // speech's half of one; another speech pod has waited two hours for two.
    const absl::Time now = RealClock::Instance()->Now();
    h0_ = AllocationHourOf(now) - absl::Hours(5);
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c.nodes = {{{"node-1", "", 0, 0, h0_, std::nullopt}, ""}};
    for (int i = 0; i < 4; ++i) {
      c.devices.push_back({absl::StrCat("GPU-", i), "node-1", i, "H100", h0_, std::nullopt});
    }
    c.pods = {
        {{"uid-v", "ml", "train-0", "", "Job", "train", "Running", h0_, h0_, std::nullopt, 2000, false}, "node-1"},
        {{"uid-s", "asr", "asr-0", "", "Job", "asr", "Running", h0_, h0_, std::nullopt, 500, false}, "node-1"},
        {{"uid-p", "asr", "asr-1", "", "Job", "asr", "Pending", now - absl::Hours(2), std::nullopt, std::nullopt, 2000,
          true},
         ""}};
    c.holds = {{"uid-v", "GPU-0", 1000, h0_, std::nullopt},
               {"uid-v", "GPU-1", 1000, h0_, std::nullopt},
               {"uid-s", "GPU-2", 500, h0_, std::nullopt}};
    c.demands = {{"uid-p", "nvidia.com/gpu", "H100", 2000, now - absl::Hours(2), std::nullopt}};
    store::PgLiveInventoryRepository inventory(pool());
    ASSERT_THAT(inventory.Apply(c), IsOk());
    store::PgPolicyRepository policies(pool());
    store::PolicyVersionRecord policy;
    policy.document = kAllocationPolicy;
    policy.applied_by = "test";
    store::AuditEntry audit;
    audit.actor = "test";
    audit.action = "policy.apply";
    ASSERT_THAT(policies.Apply(policy, std::nullopt, audit), IsOk());
  }

  testing::RunResult Once() {
    return testing::Run({fleetcap::testing::kOptimizerBin, "--once", "--db", db_->uri(), "--close-delay", "0s",
                         "--allocation-lookback", "5h"});
  }

  absl::Time h0_;
};

TEST_F(AllocationDaemonTest, StoresTheEnginesRunForTheMeasuredDemandAndNoSecondWhileNothingChanged) {
  const absl::Time closed = AllocationHourOf(RealClock::Instance()->Now());
  const testing::RunResult first = Once();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("fleetcap-optimizer: allocation run 1 stored, 2 recommendations"));

  store::PgAllocationRunRepository runs(pool());
  auto run = runs.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  const store::AllocationRunRecord& stored = **run;
  EXPECT_EQ(stored.policy_version, 1);
  EXPECT_THAT(stored.inputs_json, HasSubstr("\"lookback_hours\":5"));
  if (closed == AllocationHourOf(RealClock::Instance()->Now())) {
    // The watermark is the hour the pass closed (else an hour turned meanwhile).
    EXPECT_THAT(stored.inputs_json, HasSubstr(absl::StrCat("\"chargeback_watermark\":\"", FormatRfc3339(closed))));
  }
  ASSERT_EQ(stored.recommendations.size(), 2u);
  // Measured by hand: vision held 2 devices every hour of the lookback;
  // speech held 0.5 and its pod waited past the full weight for 2 more. The
  // engine is given that plus the policy's default headroom, 20%.
  const store::AllocationRecommendationRecord& speech = stored.recommendations[0];
  const store::AllocationRecommendationRecord& vision = stored.recommendations[1];
  EXPECT_EQ(speech.team, "speech");
  EXPECT_EQ(speech.measured_demand_milli, 2500);
  EXPECT_EQ(speech.demand_milli, 3000);
  EXPECT_THAT(speech.explanation, HasSubstr("p95 held 0.500 + trend 0.000 + pending 2.000 (1 pod, longest 2h"));
  EXPECT_THAT(speech.explanation, HasSubstr(") = 2.500 devices; "));
  EXPECT_EQ(vision.team, "vision");
  EXPECT_EQ(vision.measured_demand_milli, 2000);
  EXPECT_EQ(vision.demand_milli, 2400);
  EXPECT_THAT(vision.explanation, HasSubstr("p95 held 2.000 + trend 0.000 + pending 0.000 (0 pods) = 2.000 devices; "));

  // The engine's result for that demand, solved offline: speech's guarantee
  // of 1 and the pool of 2 shared evenly, 1 each (whole H100s already).
  allocation::SolverInput input{
      "policy", kAllocationPolicy, "demand",
      absl::StrCat("demand:\n  - {team: speech, flavor: h100, devices: ", policy::FormatDecimal(speech.demand_milli, 3),
                   "}\n  - {team: vision, flavor: h100, devices: ", policy::FormatDecimal(vision.demand_milli, 3),
                   "}\n")};
  auto expected = allocation::SolveOffline(input);
  ASSERT_THAT(expected, IsOk());
  ASSERT_EQ(expected->size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const auto& want = (*expected)[i];
    const auto& got = stored.recommendations[i];
    EXPECT_EQ(got.team, want.team);
    EXPECT_EQ(got.flavor, want.flavor);
    EXPECT_EQ(got.recommended_milli, want.recommended_milli);
    EXPECT_EQ(got.guarantee_milli, want.guarantee_milli);
    EXPECT_EQ(got.lending_limit_milli, want.lending_limit_milli);
    EXPECT_EQ(got.borrowing_limit_milli, want.borrowing_limit_milli);
    EXPECT_EQ(got.bound_by, want.bound_by);
    EXPECT_THAT(got.explanation, HasSubstr(want.explanation));
  }
  EXPECT_EQ(speech.recommended_milli, 2000);
  EXPECT_EQ(vision.recommended_milli, 1000);

  // Nothing changed: the second pass stores no run (unless an hour closed meanwhile).
  const absl::Time closed_before = AllocationHourOf(RealClock::Instance()->Now());
  const testing::RunResult second = Once();
  ASSERT_EQ(second.exit_code, 0) << second.err;
  if (closed_before == AllocationHourOf(RealClock::Instance()->Now())) {
    EXPECT_THAT(second.out, HasSubstr("fleetcap-optimizer: allocation not run: unchanged"));
    auto latest = runs.LatestRunId();
    ASSERT_THAT(latest, IsOk());
    EXPECT_EQ(*latest, std::optional<int64_t>(stored.run_id));
  }
}

}  // namespace
}  // namespace fleetcap

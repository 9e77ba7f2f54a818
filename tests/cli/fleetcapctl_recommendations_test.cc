// `fleetcapctl recommendations` against a live fleetcap-api serving a run
// stored as fleetcap-optimizer stores it.

#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_replace.h"
#include "nlohmann/json.hpp"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "store/test_inventory.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

using fleetcap::testing::kApiBin;

class FleetctlRecommendationsTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void StoreRun() {
    store::AllocationRunDraft run;
    run.computed_at = absl::FromUnixSeconds(1'772'366'400);  // 2026-03-01T12:00:00Z
    run.policy_version = 2;
    for (const auto& [team, milli] : std::vector<std::pair<std::string, int64_t>>{{"ads", 1500}, {"vision", 12250}}) {
      store::AllocationRecommendationRecord r;
      r.team = team;
      r.flavor = "a100";
      r.demand_milli = milli;
      r.recommended_milli = milli;
      r.lending_limit_milli = 0;
      r.bound_by = "demand";
      r.explanation = "demand " + std::to_string(milli / 1000);
      run.recommendations.push_back(r);
    }
    run.recommendations[0].borrowing_limit_milli = 500;
    ASSERT_THAT(store::PgAllocationRunRepository(pool()).StoreRun(run), IsOk());
  }

  // Applies the policy in `file` as version 1 with fleetcapctl.
  void ApplyPolicy(const std::string& file) {
    auto applied = testing::Run({fleetcap::testing::kCtlBin, "policy", "apply", file, "--server", api_->grpc_address(),
                                 "--token", api_->admin_token});
    ASSERT_EQ(applied.exit_code, 0) << applied.err;
  }

  testing::RunResult Ctl(std::vector<std::string> args, const std::string& token) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin, "recommendations", "--server",
                                     api_->grpc_address(),       "--token",         token};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::Run(argv);
  }
};

TEST_F(FleetctlRecommendationsTest, TableForPeople) {
  StoreRun();
  auto result = Ctl({}, api_->admin_token);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "run 1 computed at 2026-03-01T12:00:00Z under policy version 2\n"
            "TEAM    FLAVOR  MEASURED  DEMAND  GUARANTEE  RECOMMENDED  BORROWING  LENDING  BOUND BY  WHY\n"
            "ads     a100           -     1.5          0          1.5        0.5        0  demand    demand 1\n"
            "vision  a100           -   12.25          0        12.25          -        0  demand    demand 12\n");
}

TEST_F(FleetctlRecommendationsTest, JsonIsTheApisRecommendationSetAndATeamTokenSeesItsOwn) {
  StoreRun();
  auto vision = testing::MintToken(db_->uri(), "team:vision");
  ASSERT_THAT(vision, IsOk());
  auto result = Ctl({"--format", "json"}, *vision);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["runId"], "1");
  EXPECT_EQ(json["computedAt"], "2026-03-01T12:00:00Z");
  ASSERT_EQ(json["recommendations"].size(), 1u);
  EXPECT_EQ(json["recommendations"][0]["team"], "vision");
  EXPECT_EQ(json["recommendations"][0]["recommendedMilli"], "12250");
  EXPECT_FALSE(json["recommendations"][0].contains("borrowingLimitMilli"));
  // Another team's filter is refused, in one line.
  auto other = Ctl({"--team", "ads"}, *vision);
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_THAT(other.err, HasSubstr("PERMISSION_DENIED"));
  EXPECT_TRUE(other.out.empty());
}

// A policy and a run computed under it, as the scheduler exports read them.
constexpr char kExportPolicy[] = R"(version: 1
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: speech
    parent: research
flavors:
  - name: a100
    model: A100-SXM4-80GB
    capacity: 20
allocation:
  - {team: vision, flavor: a100, guarantee: 8, borrowing_limit: 6}
)";

TEST_F(FleetctlRecommendationsTest, KueueAndVolcanoManifestsUnderTheRunsPolicy) {
  testing::TestDir dir{"recommendations"};
  const std::string policy_file = dir.Write("policy.yaml", kExportPolicy);
  ApplyPolicy(policy_file);
  if (HasFatalFailure()) return;

  store::AllocationRunDraft run;
  run.computed_at = absl::FromUnixSeconds(1'772'366'400);
  run.policy_version = 1;
  store::AllocationRecommendationRecord speech;
  speech.team = "speech";
  speech.flavor = "a100";
  speech.demand_milli = speech.recommended_milli = 1500;
  speech.bound_by = "demand";
  store::AllocationRecommendationRecord vision;
  vision.team = "vision";
  vision.flavor = "a100";
  vision.demand_milli = 16000;
  vision.guarantee_milli = vision.lending_limit_milli = 8000;
  vision.borrowing_limit_milli = 6000;
  vision.recommended_milli = 14000;
  vision.bound_by = "borrowing_limit";
  run.recommendations = {speech, vision};
  ASSERT_THAT(store::PgAllocationRunRepository(pool()).StoreRun(run), IsOk());

  // An admin's token reads the run's policy version from the API.
  auto kueue = Ctl({"--format", "kueue"}, api_->admin_token);
  ASSERT_EQ(kueue.exit_code, 0) << kueue.err;
  EXPECT_THAT(kueue.out, HasSubstr("apiVersion: kueue.x-k8s.io/v1beta2"));
  EXPECT_THAT(kueue.out, HasSubstr("kind: Cohort"));
  EXPECT_THAT(kueue.out, HasSubstr("name: research"));
  EXPECT_THAT(kueue.out, HasSubstr("kind: ClusterQueue"));
  EXPECT_THAT(kueue.out, HasSubstr("nominalQuota: \"14\""));
  EXPECT_THAT(kueue.out, HasSubstr("nominalQuota: \"1500m\""));
  EXPECT_THAT(kueue.out, HasSubstr("nominalQuota: \"4500m\""));  // the root Cohort: 20 - 1.5 - 14 unassigned
  EXPECT_THAT(kueue.out, HasSubstr("borrowingLimit: \"0\""));    // vision: (8 + 6) - 14

  // A scheduler's token may not read policies: it names the policy file.
  auto scheduler = testing::MintToken(db_->uri(), "scheduler");
  ASSERT_THAT(scheduler, IsOk());
  auto denied = Ctl({"--format", "kueue"}, *scheduler);
  EXPECT_EQ(denied.exit_code, 1);
  EXPECT_THAT(denied.err, HasSubstr("PERMISSION_DENIED"));
  auto with_file = Ctl({"--format", "kueue", "--policy", policy_file}, *scheduler);
  ASSERT_EQ(with_file.exit_code, 0) << with_file.err;
  EXPECT_EQ(with_file.out, kueue.out);

  auto volcano = Ctl({"--format", "volcano", "--policy", policy_file}, *scheduler);
  ASSERT_EQ(volcano.exit_code, 0) << volcano.err;
  // The API serves the same bytes, to the scheduler too (it reads the run's policy itself).
  for (const auto& [format, printed] :
       std::vector<std::pair<std::string, std::string>>{{"kueue", kueue.out}, {"volcano", volcano.out}}) {
    auto http = testing::HttpGet(api_->http_base() + "/v1/recommendations/manifests?format=" + format, *scheduler);
    ASSERT_THAT(http, IsOk());
    ASSERT_EQ(http->status, 200) << http->body;
    EXPECT_EQ(http->body, printed) << format;
  }
  EXPECT_THAT(volcano.out, HasSubstr("apiVersion: scheduling.volcano.sh/v1beta1"));
  EXPECT_THAT(volcano.out, HasSubstr("kind: Queue"));
  EXPECT_THAT(volcano.out, HasSubstr("name: vision"));

  // A resource override that is not FLAVOR=RESOURCE is refused before any call.
  auto bad = Ctl({"--format", "kueue", "--flavor-resource", "a100"}, api_->admin_token);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--flavor-resource: \"a100\" is not FLAVOR=RESOURCE"));
}

TEST_F(FleetctlRecommendationsTest, KueueFlavorsSelectTheNodesTheInventorySaw) {
  testing::TestDir dir{"recommendations"};
  const std::string policy_file = dir.Write("policy.yaml", kExportPolicy);
  ApplyPolicy(policy_file);
  if (HasFatalFailure()) return;
  store::AllocationRunDraft run;
  run.computed_at = absl::FromUnixSeconds(1'772'366'400);
  run.policy_version = 1;
  store::AllocationRecommendationRecord vision;
  vision.team = "vision";
  vision.flavor = "a100";
  vision.demand_milli = vision.recommended_milli = 8000;
  vision.bound_by = "demand";
  run.recommendations = {vision};
  ASSERT_THAT(store::PgAllocationRunRepository(pool()).StoreRun(run), IsOk());
  // Two A100 nodes labelled as NVIDIA's GPU feature discovery labels them, in one pool.
  ASSERT_THAT(
      store::PgLiveInventoryRepository(pool()).Apply(store::LabelledA100Nodes({{"n1", "train"}, {"n2", "train"}})),
      IsOk());

  auto kueue = Ctl({"--format", "kueue"}, api_->admin_token);
  ASSERT_EQ(kueue.exit_code, 0) << kueue.err;
  EXPECT_THAT(kueue.out, HasSubstr("spec:\n  nodeLabels:\n    cloud.google.com/gke-nodepool: \"train\"\n"
                                   "    nvidia.com/gpu.product: \"NVIDIA-A100-SXM4-80GB\"\n---\n"));
  EXPECT_THAT(kueue.out, Not(HasSubstr("No node label is known"))) << kueue.out;
  // The API's manifests are the same bytes.
  auto http = testing::HttpGet(api_->http_base() + "/v1/recommendations/manifests?format=kueue", api_->admin_token);
  ASSERT_THAT(http, IsOk());
  ASSERT_EQ(http->status, 200) << http->body;
  EXPECT_EQ(http->body, kueue.out);

  // --pool-label still names the label of a pool the policy gives a flavor.
  const std::string pooled_file = dir.Write(
      "pooled.yaml",
      absl::StrReplaceAll(kExportPolicy, {{"model: A100-SXM4-80GB", "model: A100-SXM4-80GB\n    pool: train"}}));
  auto pooled =
      Ctl({"--format", "kueue", "--policy", pooled_file, "--pool-label", "example.com/pool"}, api_->admin_token);
  ASSERT_EQ(pooled.exit_code, 0) << pooled.err;
  EXPECT_THAT(pooled.out, HasSubstr("    example.com/pool: \"train\"\n"));
  EXPECT_THAT(pooled.out, HasSubstr("    nvidia.com/gpu.product: \"NVIDIA-A100-SXM4-80GB\"\n"));
}

TEST_F(FleetctlRecommendationsTest, WatchPrintsTheCurrentSetThenEachNewerRun) {
  StoreRun();
  auto watch = testing::Subprocess::Start({fleetcap::testing::kCtlBin, "recommendations", "--watch", "--server",
                                           api_->grpc_address(), "--token", api_->admin_token});
  ASSERT_THAT(watch, IsOk());
  ASSERT_THAT((*watch)->WaitForLine("run 1 computed at", absl::Seconds(30)), IsOk()) << (*watch)->Stderr();
  StoreRun();  // run 2: the same quotas, a newer run
  store::AllocationRunDraft changed;
  changed.computed_at = absl::FromUnixSeconds(1'772'370'000);
  changed.policy_version = 2;
  store::AllocationRecommendationRecord r;
  r.team = "vision";
  r.flavor = "a100";
  r.demand_milli = r.recommended_milli = 4000;
  r.bound_by = "demand";
  changed.recommendations = {r};
  ASSERT_THAT(store::PgAllocationRunRepository(pool()).StoreRun(changed), IsOk());
  ASSERT_THAT((*watch)->WaitForLine("run 3 computed at", absl::Seconds(30)), IsOk()) << (*watch)->Stdout();
  // Run 2 changed nothing the token reads: the watch skips it.
  EXPECT_THAT((*watch)->Stdout(), ::testing::Not(HasSubstr("run 2 computed at")));
  EXPECT_THAT((*watch)->Stdout(), HasSubstr("run 3 computed at 2026-03-01T13:00:00Z under policy version 2"));
  testing::RunResult stopped = (*watch)->Stop(SIGTERM);
  EXPECT_EQ(stopped.exit_code, 128 + SIGTERM);
}

TEST_F(FleetctlRecommendationsTest, BeforeTheFirstRunAndWithABadFormat) {
  auto none = Ctl({}, api_->admin_token);
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("no allocation run yet"));
  auto bad = Ctl({"--format", "yaml"}, api_->admin_token);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--format: \"yaml\" is not table, json, kueue or volcano"));
}

}  // namespace
}  // namespace fleetcap

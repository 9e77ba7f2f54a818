// `fleetcapctl recommendations` against a live fleetcap-api serving a run
// stored as fleetcap-optimizer stores it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "store/pg_allocation_run_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/status_matchers.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

constexpr char kApiBin[] = FLEETCAP_API_BIN;

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

  testing::RunResult Ctl(std::vector<std::string> args, const std::string& token) {
    std::vector<std::string> argv = {FLEETCAPCTL_BIN,      "recommendations", "--server",
                                     api_->grpc_address(), "--token",         token};
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
            "TEAM    FLAVOR  DEMAND  GUARANTEE  RECOMMENDED  BORROWING  LENDING  BOUND BY  WHY\n"
            "ads     a100       1.5          0          1.5        0.5        0  demand    demand 1\n"
            "vision  a100     12.25          0        12.25          -        0  demand    demand 12\n");
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

TEST_F(FleetctlRecommendationsTest, BeforeTheFirstRunAndWithABadFormat) {
  auto none = Ctl({}, api_->admin_token);
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("no allocation run yet"));
  auto bad = Ctl({"--format", "yaml"}, api_->admin_token);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--format: \"yaml\" is not table or json"));
}

}  // namespace
}  // namespace fleetcap

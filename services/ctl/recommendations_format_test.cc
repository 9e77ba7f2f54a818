#include "services/ctl/recommendations_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "google/protobuf/util/json_util.h"
#include "services/ctl/recommendations_commands.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

v1::RecommendationSet TwoTeams() {
  v1::RecommendationSet set;
  set.set_run_id(42);
  set.mutable_computed_at()->set_seconds(1'772'366'400);  // 2026-03-01T12:00:00Z
  set.set_policy_version(7);
  v1::Recommendation* vision = set.add_recommendations();
  vision->set_team("vision");
  vision->set_flavor("a100");
  vision->set_demand_milli(12'500);
  vision->set_guarantee_milli(8'000);
  vision->set_recommended_milli(10'250);
  vision->set_borrowing_limit_milli(4'000);
  vision->set_lending_limit_milli(2'000);
  vision->set_bound_by("fair_share");
  vision->set_explanation("fair share at weight 2");
  vision->set_measured_demand_milli(10'500);  // before the headroom; ops' is unset: nothing measured
  v1::Recommendation* ops = set.add_recommendations();
  ops->set_team("ops");
  ops->set_flavor("t4");
  ops->set_demand_milli(500);
  ops->set_recommended_milli(500);
  ops->set_bound_by("demand");
  ops->set_explanation("demand 0.5");
  return set;
}

TEST(ParseRecommendationsFormat, KnowsTableAndJsonAndNamesTheFlag) {
  EXPECT_EQ(*ParseRecommendationsFormat("table"), RecommendationsFormat::kTable);
  EXPECT_EQ(*ParseRecommendationsFormat("json"), RecommendationsFormat::kJson);
  EXPECT_THAT(ParseRecommendationsFormat("yaml"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("--format: \"yaml\" is not table, json, kueue or volcano")));
}

TEST(RecommendationsTable, IsTheAllocateTableUnderALineNamingTheRun) {
  EXPECT_EQ(RenderRecommendations(TwoTeams(), RecommendationsFormat::kTable),
            "run 42 computed at 2026-03-01T12:00:00Z under policy version 7\n"
            "TEAM    FLAVOR  MEASURED  DEMAND  GUARANTEE  RECOMMENDED  BORROWING  LENDING  BOUND BY    WHY\n"
            "vision  a100        10.5    12.5          8        10.25          4        2  fair_share  fair share at "
            "weight 2\n"
            "ops     t4             -     0.5          0          0.5          -        0  demand      demand 0.5\n");
}

TEST(RecommendationsTable, SaysSoWhenNoTeamIsLeft) {
  v1::RecommendationSet set = TwoTeams();
  set.clear_recommendations();
  EXPECT_THAT(RecommendationsTable(set), HasSubstr("no recommendations for the teams asked about"));
}

TEST(RecommendationsJson, IsTheCanonicalProtoJsonWithEveryField) {
  const std::string json = RenderRecommendations(TwoTeams(), RecommendationsFormat::kJson);
  EXPECT_THAT(json, HasSubstr("\"runId\": \"42\""));
  EXPECT_THAT(json, HasSubstr("\"computedAt\": \"2026-03-01T12:00:00Z\""));
  EXPECT_THAT(json, HasSubstr("\"guaranteeMilli\": \"0\""));                       // zero, yet printed
  EXPECT_THAT(json, HasSubstr("\"borrowingLimitMilli\": \"4000\""));               // set
  EXPECT_EQ(json.find("borrowingLimitMilli"), json.rfind("borrowingLimitMilli"));  // ops': unset, absent
  v1::RecommendationSet back;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &back).ok());
  EXPECT_EQ(back.SerializeAsString(), TwoTeams().SerializeAsString());
}

TEST(RecommendationsRequest, CarriesTheTeam) {
  EXPECT_EQ(RecommendationsRequest("vision").team(), "vision");
  EXPECT_EQ(RecommendationsRequest("").team(), "");
}

}  // namespace
}  // namespace fleetcap::ctl

#include "services/ctl/whatif_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "nlohmann/json.hpp"
#include "proto_time.h"

namespace fleetcap::ctl {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

absl::Time Day(int y, int m, int d) { return absl::FromCivil(absl::CivilDay(y, m, d), absl::UTCTimeZone()); }

// The engine's small exact case (optimizer/whatif/scenario_run_test.cc): seven of ten H100s
// removed from the 16th, team-a doubled, the price from 2 to 3.
v1::ScenarioComparison Comparison() {
  v1::ScenarioComparison c;
  *c.mutable_history_end() = ToProtoTimestamp(Day(2026, 12, 15) + absl::Hours(12));
  *c.mutable_recommendations_at() = ToProtoTimestamp(Day(2027, 1, 16));
  *c.mutable_month_start() = ToProtoTimestamp(Day(2027, 1, 1));
  *c.mutable_month_end() = ToProtoTimestamp(Day(2027, 2, 1));
  *c.mutable_horizon_end() = ToProtoTimestamp(Day(2027, 3, 15) + absl::Hours(12));
  c.set_currency("USD");
  auto side = [](v1::ScenarioSide* s, int32_t version, int64_t a_quota, int64_t a_bill, int64_t b_bill, int64_t idle,
                 int64_t total, int64_t capacity, int64_t ppm, bool exhausted) {
    s->set_policy_version(version);
    v1::Recommendation* r = s->add_recommendations();
    r->set_team("team-a");
    r->set_flavor("h100");
    r->set_demand_milli(a_quota);
    r->set_recommended_milli(a_quota);
    r->set_bound_by("demand");
    v1::TeamBill* a = s->add_bills();
    a->set_team("team-a");
    a->set_micro(a_bill);
    v1::TeamBill* b = s->add_bills();
    b->set_team("team-b");
    b->set_micro(b_bill);
    s->set_idle_micro(idle);
    s->set_total_micro(total);
    v1::FlavorOutlook* f = s->add_flavors();
    f->set_flavor("h100");
    f->set_capacity_milli(capacity);
    f->set_utilisation_ppm(ppm);
    f->set_model("recent_average");
    if (exhausted) {
      *f->mutable_exhausted_p50() = ToProtoTimestamp(Day(2027, 1, 16));
      *f->mutable_exhausted_p90() = ToProtoTimestamp(Day(2027, 1, 16));
    }
  };
  side(c.mutable_baseline(), 5, 3000, 4'464'000'000, 1'488'000'000, 8'928'000'000, 14'880'000'000, 10'000, 400'000,
       false);
  side(c.mutable_scenario(), 0, 2500, 9'441'792'000, 1'574'208'000, 3'240'000'000, 14'256'000'000, 3'000, 772'727,
       true);
  return c;
}

// The table with runs of spaces made one, so rows are checked without their alignment.
std::string Squeezed(const std::string& s) { return std::regex_replace(s, std::regex(" +"), " "); }

TEST(WhatIfTable, NamesBothPoliciesAndWhenTheRecommendationsApply) {
  const std::string out = WhatIfTable(Comparison());
  EXPECT_THAT(out, HasSubstr("baseline: policy v5; scenario (columns marked '): policy patched\n"));
  EXPECT_THAT(out, HasSubstr("held history up to 2026-12-15T12:00:00Z; recommendations with every change in force "
                             "at 2027-01-16T00:00:00Z"));
}

TEST(WhatIfTable, PutsRecommendationsSideBySideWithTheirChange) {
  EXPECT_THAT(Squeezed(WhatIfTable(Comparison())), HasSubstr("team-a h100 3 2.5 3 2.5 -0.5 demand\n"));
}

TEST(WhatIfTable, PrintsBillsToTheHundredthWithIdleAndTheTotalTheyAddUpTo) {
  const std::string out = Squeezed(WhatIfTable(Comparison()));
  EXPECT_THAT(out, HasSubstr("Projected bill, 2027-01-01T00:00:00Z to 2027-02-01T00:00:00Z (USD)"));
  EXPECT_THAT(out, HasSubstr("team-a 4464.00 9441.79 +4977.79\n"));
  EXPECT_THAT(out, HasSubstr("team-b 1488.00 1574.21 +86.21\n"));
  EXPECT_THAT(out, HasSubstr("idle 8928.00 3240.00 -5688.00\n"));
  EXPECT_THAT(out,
              HasSubstr("total 14880.00 14256.00 -624.00\nmoney rounded to the hundredth; --format json gives it"));
}

TEST(WhatIfTable, ShowsUtilisationAndExhaustionDaysOrADash) {
  EXPECT_THAT(Squeezed(WhatIfTable(Comparison())),
              HasSubstr("h100 10 3 40.00% 77.27% - 2027-01-16 - 2027-01-16 recent_average\n"));
}

TEST(WhatIfTable, ATeamOnOneSideOnlyShowsADash) {
  v1::ScenarioComparison c = Comparison();
  v1::Recommendation* r = c.mutable_scenario()->add_recommendations();
  r->set_team("team-c");
  r->set_flavor("h100");
  r->set_recommended_milli(500);
  r->set_bound_by("fair_share");
  EXPECT_THAT(Squeezed(WhatIfTable(c)), HasSubstr("team-c h100 - 0 - 0.5 +0.5 fair_share\n"));
  EXPECT_THAT(Squeezed(WhatIfTable(c)), Not(HasSubstr("team-c h100 0 ")));
}

TEST(WhatIfTable, ABillOrUtilisationNoStoredForecastCoversIsUnknownNotAFigure) {
  v1::ScenarioComparison c = Comparison();
  c.mutable_baseline()->set_forecast_run_id(7);
  c.mutable_baseline()->mutable_bills(1)->add_unknown_flavors("h100");
  c.mutable_baseline()->mutable_flavors(0)->set_held_unknown(true);
  const std::string out = Squeezed(WhatIfTable(c));
  EXPECT_THAT(out, HasSubstr("projected month: stored forecast run 7\n"));
  EXPECT_THAT(out, HasSubstr("team-b unknown 1574.21 unknown\n"));
  EXPECT_THAT(out, HasSubstr("h100 10 3 unknown 77.27% "));
}

TEST(WhatIfJson, IsTheProto3JsonWithEveryField) {
  const nlohmann::json json = nlohmann::json::parse(WhatIfJson(Comparison()));
  EXPECT_EQ(json["scenario"]["totalMicro"], "14256000000");
  EXPECT_EQ(json["baseline"]["flavors"][0]["utilisationPpm"], "400000");
  EXPECT_EQ(json["scenario"]["flavors"][0]["exhaustedP50"], "2027-01-16T00:00:00Z");
  EXPECT_EQ(json["baseline"]["bills"][0]["heldMilliHours"], "0");  // printed though zero
}

}  // namespace
}  // namespace fleetcap::ctl

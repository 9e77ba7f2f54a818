#include "optimizer/budget_pass/budget_states.h"

#include <gtest/gtest.h>

#include "store/memory_chargeback_repository.h"

namespace fleetcap::budgets {
namespace {

const absl::Time kDec1 = absl::FromCivil(absl::CivilDay(2026, 12, 1), absl::UTCTimeZone());

policy::PolicyDocument Policy() {
  policy::PolicyDocument doc;
  for (auto [name, parent] :
       {std::pair<std::string, std::string>{"vision", ""}, {"vision-detect", "vision"}, {"ads", ""}}) {
    policy::Team t;
    t.name = name;
    t.parent = parent;
    doc.teams.push_back(t);
  }
  auto budget = [](const std::string& team, int month, int64_t amount) {
    policy::Budget b;
    b.team = team;
    b.year = 2026;
    b.month = month;
    b.micro_amount = amount;
    return b;
  };
  doc.budgets = {budget("vision", 12, 50'000'000), budget("ads", 12, 1'000'000), budget("vision", 11, 9)};
  return doc;
}

store::ChargebackLineRecord Line(absl::Time hour, const std::string& team, int64_t cost) {
  store::ChargebackLineRecord l;
  l.hour = hour;
  l.cluster = "c1";
  l.team = team;
  l.namespace_name = team == "idle" ? "" : team + "-ns";
  l.workload = team == "idle" ? "" : "Job/" + team;
  l.model = "A100";
  l.line_kind = team == "idle" ? "idle" : "workload";
  l.direct_cost_micro = l.total_cost_micro = cost;
  return l;
}

class BudgetStatesTest : public ::testing::Test {
 protected:
  // Each hour from 2026-11-24 to 2026-12-03T08:00: vision 0.01, vision-detect
  // 0.02, ads 0.5, idle 1.00 (no team's).
  void SetUp() override {
    const absl::Time start = kDec1 - absl::Hours(7 * 24), end = kDec1 + absl::Hours(2 * 24 + 8);
    std::vector<store::ChargebackLineRecord> lines;
    for (absl::Time h = start; h < end; h += absl::Hours(1)) {
      for (auto [team, cost] : {std::pair<std::string, int64_t>{"vision", 10'000},
                                {"vision-detect", 20'000},
                                {"ads", 500'000},
                                {"idle", 1'000'000}}) {
        lines.push_back(Line(h, team, cost));
      }
    }
    ASSERT_TRUE(lines_.ReplaceHours("c1", start, end, lines, {}).ok());
  }

  store::MemoryChargebackRepository lines_;
  policy::PolicyDocument policy_ = Policy();
};

TEST_F(BudgetStatesTest, BudgetsOfMonthAreTheMonthsByTeam) {
  auto december = BudgetsOfMonth(policy_, kDec1 + absl::Hours(100));
  ASSERT_EQ(december.size(), 2u);
  EXPECT_EQ(december[0].team, "ads");
  EXPECT_EQ(december[1].team, "vision");
  EXPECT_EQ(BudgetsOfMonth(policy_, kDec1 - absl::Seconds(1)).size(), 1u);
  EXPECT_TRUE(BudgetsOfMonth(policy_, kDec1 + absl::Hours(31 * 24)).empty());
}

// Through 2026-12-03T05:00: two whole days and 5 hours of the month, the
// lines after it (to 08:00) not yet counted.
TEST_F(BudgetStatesTest, SpendIsTheSubtreesThroughTheHourAndTheRestAtItsRate) {
  const absl::Time through = kDec1 + absl::Hours(53);
  auto states = ForecastBudgets(lines_, policy_, BudgetsOfMonth(policy_, through), through);
  ASSERT_TRUE(states.ok()) << states.status();
  ASSERT_EQ(states->size(), 2u);
  const insights::BudgetForecast& ads = (*states)[0].forecast;
  EXPECT_EQ((*states)[0].budget.team, "ads");
  EXPECT_EQ(ads.spent_micro, 53 * 500'000);
  // 12.00 a day over the 7 days 2026-11-26..12-02, 28 days 19 hours left (691 hours).
  EXPECT_EQ(ads.forecast_rest_micro, 691 * 500'000);
  EXPECT_EQ(ads.status, "over");
  const insights::BudgetForecast& vision = (*states)[1].forecast;
  EXPECT_EQ(vision.spent_micro, 53 * 30'000);  // vision and vision-detect, not idle
  EXPECT_EQ(vision.forecast_rest_micro, 691 * 30'000);
  EXPECT_EQ(vision.projected_micro, 744 * 30'000);
  EXPECT_EQ(vision.status, "under");
  EXPECT_EQ(vision.through, through);
}

TEST_F(BudgetStatesTest, NoBudgetsReadNothing) {
  auto states = ForecastBudgets(lines_, policy_, {}, kDec1);
  ASSERT_TRUE(states.ok());
  EXPECT_TRUE(states->empty());
}

}  // namespace
}  // namespace fleetcap::budgets

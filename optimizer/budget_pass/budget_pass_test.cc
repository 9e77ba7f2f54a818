#include "optimizer/budget_pass/budget_pass.h"

#include <gtest/gtest.h>

#include "store/memory_chargeback_repository.h"

namespace fleetcap::budgets {
namespace {

const absl::Time kPassNov1 = absl::FromCivil(absl::CivilDay(2026, 11, 1), absl::UTCTimeZone());
const absl::Time kPassDec1 = absl::FromCivil(absl::CivilDay(2026, 12, 1), absl::UTCTimeZone());

// Version 1 (November): budgets for November only. Version 2, applied
// 2026-12-01T02:00: a December budget for vision, in EUR.
constexpr const char* kV1 = R"(version: 1
teams: [{name: vision}, {name: ads}]
budgets: [{team: vision, month: 2026-11, amount: "1"}]
)";
constexpr const char* kV2 = R"(version: 1
currency: EUR
teams: [{name: vision}, {name: ads}]
budgets: [{team: vision, month: 2026-12, amount: "3"}, {team: ads, month: 2026-11, amount: "1"}]
)";

store::ChargebackLineRecord PassLine(absl::Time hour, const std::string& team, int64_t cost) {
  store::ChargebackLineRecord l;
  l.hour = hour;
  l.cluster = "c1";
  l.team = team;
  l.namespace_name = team + "-ns";
  l.workload = "Job/" + team;
  l.model = "A100";
  l.line_kind = "workload";
  l.direct_cost_micro = l.total_cost_micro = cost;
  return l;
}

class BudgetPassTest : public ::testing::Test {
 protected:
  // vision spends 0.10 an hour from 2026-11-20 to 2026-12-02T00:00.
  void SetUp() override {
    std::vector<store::ChargebackLineRecord> lines;
    const absl::Time start = kPassNov1 + absl::Hours(19 * 24);
    for (absl::Time h = start; h < kPassDec1 + absl::Hours(24); h += absl::Hours(1)) {
      lines.push_back(PassLine(h, "vision", 100'000));
    }
    ASSERT_TRUE(lines_.ReplaceHours("c1", start, kPassDec1 + absl::Hours(24), lines, {}).ok());
  }

  std::vector<policy::StoredPolicy> stored_;
  policy::PolicyTimeline timeline_{[this](int32_t after) -> absl::StatusOr<std::vector<policy::StoredPolicy>> {
    std::vector<policy::StoredPolicy> out;
    for (const auto& p : stored_) {
      if (p.version > after) out.push_back(p);
    }
    return out;
  }};
  store::MemoryChargebackRepository lines_;
  SimulatedClock clock_{kPassDec1 + absl::Hours(20) + absl::Minutes(10)};
  BudgetPass pass_{&lines_, &timeline_, &clock_};
};

TEST_F(BudgetPassTest, NoPolicyNoBudgets) {
  auto report = pass_.Run(kPassDec1);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->budgets.empty());
}

// The policy in force now, a version applied after the pass began included;
// the budgets of now's month; spent through the watermark.
TEST_F(BudgetPassTest, TheMonthsBudgetsOfTheActivePolicyThroughTheWatermark) {
  stored_ = {{1, kPassNov1, kV1}, {2, kPassDec1 + absl::Hours(2), kV2}};
  auto report = pass_.Run(kPassDec1 + absl::Hours(18));
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->currency, "EUR");
  ASSERT_EQ(report->budgets.size(), 1u);
  const BudgetState& vision = report->budgets[0];
  EXPECT_EQ(vision.budget.team, "vision");
  EXPECT_EQ(vision.forecast.through, kPassDec1 + absl::Hours(18));
  EXPECT_EQ(vision.forecast.spent_micro, 18 * 100'000);
  // 2.40 a day over the 7 days before, 30 days 6 hours left: 72.60.
  EXPECT_EQ(vision.forecast.forecast_rest_micro, 726 * 100'000);
  EXPECT_EQ(vision.forecast.status, "projected_over");
}

// Before the first pass nothing is computed: nothing spent, nothing to forecast from.
TEST_F(BudgetPassTest, BeforeTheFirstPassNothingIsSpent) {
  stored_ = {{1, kPassNov1, kV2}};
  auto report = pass_.Run(std::nullopt);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->budgets.size(), 1u);
  EXPECT_EQ(report->budgets[0].forecast.through, kPassDec1);
  EXPECT_EQ(report->budgets[0].forecast.spent_micro, 0);
}

TEST(SpentThrough, TheHourOfAtOrTheWatermarkTheEarlier) {
  const absl::Time at = kPassDec1 + absl::Hours(5) + absl::Minutes(59);
  EXPECT_EQ(SpentThrough(at, kPassDec1 + absl::Hours(9)), kPassDec1 + absl::Hours(5));
  EXPECT_EQ(SpentThrough(at, kPassDec1 + absl::Hours(2)), kPassDec1 + absl::Hours(2));
  EXPECT_EQ(SpentThrough(at, std::nullopt), kPassDec1);
  EXPECT_EQ(SpentThrough(kPassDec1 - absl::Seconds(1), std::nullopt), kPassNov1);
}

}  // namespace
}  // namespace fleetcap::budgets

#include "services/api/insights/budgets_query.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "proto_time.h"
#include "services/api/test_scopes.h"
#include "store/memory_chargeback_repository.h"
#include "store/memory_control_repositories.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::api {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

const absl::Time kDec1 = absl::FromUnixSeconds(1'796'083'200);  // 2026-12-01T00:00:00Z

constexpr const char* kBudgets = R"(budgets:
  - {team: research, month: 2026-12, amount: "100"}
  - {team: vision, month: 2026-12, amount: "1"}
  - {team: ads, month: 2026-12, amount: "300"}
  - {team: vision, month: 2026-11, amount: "5"}
)";

store::ChargebackLineRecord Line(absl::Time hour, const std::string& team, int64_t cost) {
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

using test_scopes::TeamScope;

v1::GetBudgetsRequest Request(const std::string& team = "", std::optional<absl::Time> at = std::nullopt) {
  v1::GetBudgetsRequest r;
  r.set_team(team);
  if (at) *r.mutable_at() = ToProtoTimestamp(*at);
  return r;
}

std::vector<std::string> TeamsOf(const v1::BudgetReport& report) {
  std::vector<std::string> teams;
  for (const v1::Budget& b : report.budgets()) teams.push_back(b.team() + " " + b.month());
  return teams;
}

class BudgetsQueryTest : public ::testing::Test {
 protected:
  // From 2026-12-01 to 12-03T08:00, each hour: vision 0.01, vision-detect
  // 0.02, ads 0.50, and nothing of research's own. The chargeback is computed
  // through 12-03T05:00; the clock reads 12-03T07:30.
  void SetUp() override {
    store::PolicyVersionRecord record;
    record.document = absl::StrCat(test_scopes::kTwoOrgPolicy, kBudgets);
    record.applied_at = kDec1 - absl::Hours(24 * 60);
    ASSERT_THAT(policies_.Apply(record, std::nullopt, store::AuditEntry{}), IsOk());
    std::vector<store::ChargebackLineRecord> lines;
    for (absl::Time h = kDec1; h < kDec1 + absl::Hours(56); h += absl::Hours(1)) {
      lines.push_back(Line(h, "vision", 10'000));
      lines.push_back(Line(h, "vision-detect", 20'000));
      lines.push_back(Line(h, "ads", 500'000));
    }
    ASSERT_THAT(lines_.ReplaceHours("c1", kDec1, kDec1 + absl::Hours(56), lines, {}), IsOk());
    ASSERT_THAT(lines_.AdvanceWatermark("", kDec1 + absl::Hours(53)), IsOk());
  }

  store::MemoryAuditRepository audit_;
  store::MemoryPolicyRepository policies_{&audit_};
  ActivePolicyCache cache_{&policies_};
  store::MemoryChargebackRepository lines_;
  SimulatedClock clock_{kDec1 + absl::Hours(55) + absl::Minutes(30)};
  BudgetsQuery query_{&lines_, &lines_, &cache_, &clock_};
};

// Now, through the fleet's watermark: 53 hours spent, and the rest of the
// month (691 hours) at the rate of the team's 2 complete days.
TEST_F(BudgetsQueryTest, EveryBudgetOfTheMonthThroughTheWatermark) {
  auto report = query_.Run(Scope{}, Request());
  ASSERT_THAT(report, IsOk());
  EXPECT_EQ(report->currency(), "EUR");
  EXPECT_THAT(TeamsOf(*report), ::testing::ElementsAre("ads 2026-12", "research 2026-12", "vision 2026-12"));
  const v1::Budget& research = report->budgets(1);
  EXPECT_EQ(research.amount_micro(), 100'000'000);
  EXPECT_EQ(FromProtoTimestamp(research.through()), kDec1 + absl::Hours(53));
  EXPECT_EQ(research.spent_micro(), 53 * 30'000);  // vision and vision-detect, its subtree
  EXPECT_EQ(research.forecast_rest_micro(), 691 * 30'000);
  EXPECT_EQ(research.projected_micro(), 744 * 30'000);
  EXPECT_EQ(research.status(), "under");
  EXPECT_THAT(research.method(), HasSubstr("2 complete UTC days 2026-12-01 to 2026-12-02"));
  EXPECT_EQ(report->budgets(0).status(), "projected_over");  // ads: 26.50 spent, 372.00 projected of 300.00
  EXPECT_EQ(report->budgets(2).status(), "over");            // vision: 1.59 of 1.00
}

// An instant before the watermark: through the hour holding it.
TEST_F(BudgetsQueryTest, AtIsCountedThroughItsHour) {
  auto report = query_.Run(Scope{}, Request("vision", kDec1 + absl::Hours(26) + absl::Minutes(59)));
  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->budgets_size(), 1);
  EXPECT_EQ(FromProtoTimestamp(report->budgets(0).through()), kDec1 + absl::Hours(26));
  EXPECT_EQ(report->budgets(0).spent_micro(), 26 * 30'000);
}

TEST_F(BudgetsQueryTest, AnotherMonthsBudgetsAtAnInstantInIt) {
  auto report = query_.Run(Scope{}, Request("", kDec1 - absl::Hours(14)));
  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(TeamsOf(*report), ::testing::ElementsAre("vision 2026-11"));
  EXPECT_EQ(report->budgets(0).spent_micro(), 0);
  EXPECT_THAT(report->budgets(0).method(), HasSubstr("no history"));
}

TEST_F(BudgetsQueryTest, ATeamSelectsItsSubtreesBudgets) {
  auto research = query_.Run(Scope{}, Request("research"));
  ASSERT_THAT(research, IsOk());
  EXPECT_THAT(TeamsOf(*research), ::testing::ElementsAre("research 2026-12", "vision 2026-12"));
  auto detect = query_.Run(Scope{}, Request("vision-detect"));
  ASSERT_THAT(detect, IsOk());
  EXPECT_EQ(detect->budgets_size(), 0);
  auto unknown = query_.Run(Scope{}, Request("nobody"));
  ASSERT_THAT(unknown, IsOk());
  EXPECT_EQ(unknown->budgets_size(), 0);
}

// A team token sees its subtree's budgets, not those of a team above it.
TEST_F(BudgetsQueryTest, ATeamTokenSeesItsSubtreesBudgetsOnly) {
  const Scope vision = TeamScope("vision", {"vision", "vision-detect"});
  auto report = query_.Run(vision, Request());
  ASSERT_THAT(report, IsOk());
  EXPECT_THAT(TeamsOf(*report), ::testing::ElementsAre("vision 2026-12"));
  EXPECT_THAT(query_.Run(vision, Request("research")), StatusIs(absl::StatusCode::kPermissionDenied));
  EXPECT_THAT(query_.Run(vision, Request("ads")), StatusIs(absl::StatusCode::kPermissionDenied));
  EXPECT_THAT(query_.Run(vision, Request("nobody")), StatusIs(absl::StatusCode::kPermissionDenied));
}

TEST_F(BudgetsQueryTest, BeforeTheFirstPassNothingIsSpent) {
  store::MemoryChargebackRepository fresh;
  BudgetsQuery query{&fresh, &fresh, &cache_, &clock_};
  auto report = query.Run(Scope{}, Request("ads"));
  ASSERT_THAT(report, IsOk());
  ASSERT_EQ(report->budgets_size(), 1);
  EXPECT_EQ(FromProtoTimestamp(report->budgets(0).through()), kDec1);
  EXPECT_EQ(report->budgets(0).projected_micro(), 0);
}

TEST_F(BudgetsQueryTest, AnInstantOutOfRangeNamesAt) {
  v1::GetBudgetsRequest r;
  r.mutable_at()->set_seconds(std::numeric_limits<int64_t>::max());
  EXPECT_THAT(query_.Run(Scope{}, r), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at")));
}

}  // namespace
}  // namespace fleetcap::api

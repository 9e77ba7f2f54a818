#include "services/ctl/insights_budgets_commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "proto_time.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

const absl::Time kBudgetsNow = absl::FromUnixSeconds(1796467032);  // 2026-12-05T10:37:12Z

v1::BudgetReport Report() {
  v1::BudgetReport r;
  r.set_currency("EUR");
  v1::Budget* b = r.add_budgets();
  b->set_team("vision");
  b->set_month("2026-12");
  b->set_amount_micro(1'000'000'000);
  b->set_spent_micro(123'456'789);
  *b->mutable_through() = ToProtoTimestamp(absl::FromUnixSeconds(1796464800));  // 10:00
  b->set_forecast_rest_micro(900'000'000);
  b->set_projected_micro(1'023'456'789);
  b->set_status("projected_over");
  b->set_method("the mean daily cost of the 7 complete UTC days 2026-11-28 to 2026-12-04, 33.00 a day, \"quoted\"");
  return r;
}

TEST(BudgetsRequest, TeamAndAtRelativeToNow) {
  auto request = BudgetsRequest("vision", "-2d", kBudgetsNow);
  ASSERT_THAT(request, IsOk());
  EXPECT_EQ(request->team(), "vision");
  EXPECT_EQ(FromProtoTimestamp(request->at()), kBudgetsNow - absl::Hours(48));
  auto now = BudgetsRequest("", "", kBudgetsNow);
  ASSERT_THAT(now, IsOk());
  EXPECT_FALSE(now->has_at());  // the server's now
  EXPECT_THAT(BudgetsRequest("", "soon", kBudgetsNow), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--at")));
}

TEST(BudgetsFormat, TableJsonOrCsv) {
  EXPECT_THAT(ParseReportFormat("csv"), IsOk());
  EXPECT_THAT(ParseReportFormat("focus"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--format")));
}

TEST(RenderBudgets, TableToTheHundredthWithTheNoteAndTheMethod) {
  const std::string table = RenderBudgets(Report(), ReportFormat::kTable);
  EXPECT_THAT(table, HasSubstr("Budgets (EUR)"));
  EXPECT_THAT(table, HasSubstr("1000.00"));
  EXPECT_THAT(table, HasSubstr("123.46"));
  EXPECT_THAT(table, HasSubstr("1023.46"));
  EXPECT_THAT(table, HasSubstr("projected_over"));
  EXPECT_THAT(table, HasSubstr("2026-12-05T10:00:00Z"));
  EXPECT_THAT(table, HasSubstr("figures rounded to the hundredth"));
  EXPECT_THAT(table, HasSubstr("vision: the mean daily cost of the 7 complete UTC days"));
  v1::BudgetReport whole = Report();
  whole.mutable_budgets(0)->set_spent_micro(100'000'000);
  whole.mutable_budgets(0)->set_projected_micro(1'000'000'000);
  EXPECT_THAT(RenderBudgets(whole, ReportFormat::kTable), Not(HasSubstr("rounded")));
  EXPECT_EQ(RenderBudgets(v1::BudgetReport(), ReportFormat::kTable), "no budgets for this month\n");
}

TEST(RenderBudgets, CsvIsExact) {
  const std::string csv = RenderBudgets(Report(), ReportFormat::kCsv);
  EXPECT_THAT(csv, HasSubstr("team,month,amount,spent,through,forecast_rest,projected,status,method,currency\r\n"));
  EXPECT_THAT(csv,
              HasSubstr("vision,2026-12,1000.00,123.456789,2026-12-05T10:00:00Z,900.00,1023.456789,projected_over,"));
  EXPECT_THAT(csv, HasSubstr("\"\"quoted\"\"\",EUR"));
}

TEST(RenderBudgets, JsonIsTheApisProto3Json) {
  const auto json = nlohmann::json::parse(RenderBudgets(Report(), ReportFormat::kJson));
  EXPECT_EQ(json["currency"], "EUR");
  EXPECT_EQ(json["budgets"][0]["spentMicro"], "123456789");
  EXPECT_EQ(json["budgets"][0]["forecastRestMicro"], "900000000");
  EXPECT_EQ(json["budgets"][0]["through"], "2026-12-05T10:00:00Z");
}

}  // namespace
}  // namespace fleetcap::ctl

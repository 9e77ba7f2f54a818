#include "services/exports/spend_change_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"

namespace fleetcap::exports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// 07_every_driver (optimizer/insights/cases/spend_change/) as the API answers it.
v1::SpendChangeReport Report() {
  v1::SpendChangeReport r;
  r.mutable_previous_start()->set_seconds(1769990400);  // 2026-02-02T00:00:00Z
  r.mutable_start()->set_seconds(1770004800);
  r.mutable_end()->set_seconds(1770019200);
  r.set_previous_cost_micro(18'500'000);
  r.set_current_cost_micro(28'800'000);
  r.set_change_micro(10'300'000);
  r.set_currency("EUR");
  for (const auto& [name, micro] : std::vector<std::pair<std::string, int64_t>>{{"started", 1'000'000},
                                                                                {"ended", -7'000'000},
                                                                                {"held_time", 5'916'667},
                                                                                {"model_mix", 8'166'667},
                                                                                {"price", 1'916'666},
                                                                                {"idle_share", -200'000},
                                                                                {"shared_and_fixed", 500'000}}) {
    v1::SpendDriver* d = r.add_drivers();
    d->set_name(name);
    d->set_change_micro(micro);
  }
  v1::SpendContribution* c = r.mutable_drivers(1)->add_top();
  c->set_team("vision");
  c->set_namespace_("cv");
  c->set_workload("old");
  c->set_model("A100");
  c->set_change_micro(-7'000'000);
  return r;
}

TEST(SpendChangeTable, WalksFromThePreviousCostThroughEachDriverToTheCurrentOne) {
  const std::string table = SpendChangeTable(Report());
  EXPECT_THAT(table, HasSubstr("Why spend changed, 2026-02-02T00:00:00Z to 2026-02-02T04:00:00Z -> "
                               "2026-02-02T04:00:00Z to 2026-02-02T08:00:00Z (EUR)"));
  EXPECT_THAT(table, HasSubstr("previous window"));
  EXPECT_THAT(table, HasSubstr("18.50"));
  // Running totals after each driver: 19.50, 12.50, 18.42, 26.58, 28.50, 28.30, 28.80.
  for (const char* running : {"19.50", "12.50", "18.42", "26.58", "28.50", "28.30"}) {
    EXPECT_THAT(table, HasSubstr(running));
  }
  EXPECT_THAT(table, HasSubstr("+5.92"));
  EXPECT_THAT(table, HasSubstr("-7.00"));
  EXPECT_THAT(table, HasSubstr("vision/cv/old A100"));
  EXPECT_THAT(table, HasSubstr("+ model_mix: device time moved between models"));
  EXPECT_THAT(table, HasSubstr("= current window"));
  EXPECT_THAT(table, HasSubstr("+10.30"));
  EXPECT_THAT(table, HasSubstr("figures rounded to the hundredth"));
}

TEST(SpendChangeTable, NoRoundingNoteWhenEveryFigureIsInHundredths) {
  v1::SpendChangeReport r = Report();
  for (v1::SpendDriver& d : *r.mutable_drivers()) d.set_change_micro(d.change_micro() / 10000 * 10000);
  EXPECT_THAT(SpendChangeTable(r), Not(HasSubstr("rounded")));
}

TEST(SpendChangeCsv, EveryAmountExactDriversThenContributions) {
  const std::string csv = SpendChangeCsv(Report());
  EXPECT_THAT(csv, HasSubstr("row,driver,team,namespace,workload,model,amount,currency\r\n"));
  EXPECT_THAT(csv, HasSubstr("previous,,,,,,18.50,EUR\r\n"));
  EXPECT_THAT(csv, HasSubstr("driver,held_time,,,,,5.916667,EUR\r\n"));
  EXPECT_THAT(csv, HasSubstr("driver,ended,,,,,-7.00,EUR\r\ncontribution,ended,vision,cv,old,A100,-7.00,EUR\r\n"));
  EXPECT_THAT(csv, HasSubstr("current,,,,,,28.80,EUR\r\n"));
}

TEST(SpendChangeJson, IsTheReportsProto3Json) {
  const nlohmann::json json = nlohmann::json::parse(SpendChangeJson(Report()));
  EXPECT_EQ(json.at("changeMicro"), "10300000");
  EXPECT_EQ(json.at("drivers").size(), 7u);
  EXPECT_EQ(json.at("previousStart"), "2026-02-02T00:00:00Z");
}

TEST(SpendChangeFormatParse, NamesTheFlag) {
  EXPECT_TRUE(ParseReportFormat("csv").ok());
  EXPECT_THAT(std::string(ParseReportFormat("focus").status().message()), HasSubstr("--format"));
}

}  // namespace
}  // namespace fleetcap::exports

#include "services/ctl/insights_rightsizing_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {
namespace {

using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kEnd = 1'773'532'800;  // 2026-03-15T00:00:00Z

v1::RightsizingReport Sample() {
  v1::RightsizingReport r;
  r.mutable_start()->set_seconds(kEnd - 14 * 86400);
  r.mutable_end()->set_seconds(kEnd);
  r.mutable_computed_at()->set_seconds(kEnd + 300);
  r.set_currency("EUR");
  r.set_recommendation_count(3);
  r.set_savings_micro_per_month(4'407'859'587);
  v1::RightsizingRecommendation* a = r.add_recommendations();
  a->set_cluster("c1");
  a->set_team("vision");
  a->set_namespace_("cv");
  a->set_workload("Job/train");
  a->set_model("A100-SXM4-80GB");
  a->set_kind("fewer_devices");
  a->set_current("8 x A100-SXM4-80GB");
  a->set_proposed("6 x A100-SXM4-80GB");
  a->set_current_milli(8000);
  a->set_proposed_milli(6000);
  a->set_savings_micro_per_month(4'320'000'000);
  a->set_evidence("p95 of devices active at once 5.20 of the 8 held, \"duty_cycle\"");
  a->set_observed_minutes(10077);
  a->set_confidence("medium");
  a->set_p95_active_devices(5.2);
  v1::RightsizingRecommendation* b = r.add_recommendations();
  *b = *a;
  b->set_workload("Job/resnet");
  b->set_kind("cheaper_flavor");
  b->set_current("flavor v100");
  b->set_proposed("flavor p100");
  b->set_proposed_milli(6711);
  b->set_savings_micro_per_month(87'859'587);
  return r;
}

TEST(RightsizingFormat, TheTableShowsHundredthsAndSaysWhereTheExactFiguresAre) {
  const std::string table = RightsizingTable(Sample());
  EXPECT_THAT(table, HasSubstr("rightsizing over 2026-03-01T00:00:00Z to 2026-03-15T00:00:00Z, computed "
                               "2026-03-15T00:05:00Z, in EUR: 3 recommendations, up to 4407.86 a month"));
  EXPECT_THAT(table, HasSubstr("4320.00"));
  EXPECT_THAT(table, HasSubstr("87.86"));
  EXPECT_THAT(table, HasSubstr("6 x A100-SXM4-80GB"));
  EXPECT_THAT(table, HasSubstr("the first 2 of 3; --limit shows more"));
  EXPECT_THAT(table, HasSubstr("figures rounded to the hundredth; --format csv or json gives them exactly"));
  v1::RightsizingReport whole = Sample();
  whole.set_savings_micro_per_month(4'320'000'000);
  whole.mutable_recommendations()->RemoveLast();
  whole.set_recommendation_count(1);
  EXPECT_THAT(RightsizingTable(whole), Not(HasSubstr("rounded")));
  EXPECT_THAT(RightsizingTable(v1::RightsizingReport{}), HasSubstr("no rightsizing computed yet"));
}

TEST(RightsizingFormat, CsvAndJsonAreExact) {
  const std::string csv = RightsizingCsv(Sample());
  EXPECT_THAT(csv, HasSubstr("cluster,team,namespace,workload,model,kind,current,proposed,current_milli,"));
  EXPECT_THAT(csv, HasSubstr("c1,vision,cv,Job/resnet,A100-SXM4-80GB,cheaper_flavor,flavor v100,flavor p100,8000,"
                             "6711,87.859587,EUR,10077,medium,5.200000,"));
  EXPECT_THAT(csv, HasSubstr("\"p95 of devices active at once 5.20 of the 8 held, \"\"duty_cycle\"\"\"\r\n"));
  const nlohmann::json json = nlohmann::json::parse(RightsizingJson(Sample()));
  EXPECT_EQ(json["savingsMicroPerMonth"], "4407859587");
  EXPECT_EQ(json["recommendations"][1]["savingsMicroPerMonth"], "87859587");
  EXPECT_EQ(json["recommendations"][0]["p95ActiveDevices"], 5.2);
}

TEST(RightsizingFormat, AnUnknownFormatNamesTheFlag) {
  EXPECT_THAT(ParseReportFormat("focus"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--format")));
  EXPECT_TRUE(ParseReportFormat("CSV").ok());
}

}  // namespace
}  // namespace fleetcap::ctl

#include "services/exports/waste_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "proto_time.h"

namespace fleetcap::exports {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

v1::WasteReport AReport(int64_t cost) {
  v1::WasteReport r;
  *r.mutable_start() = ToProtoTimestamp(absl::FromUnixSeconds(1767225600));
  *r.mutable_end() = ToProtoTimestamp(absl::FromUnixSeconds(1767225600 + 6 * 3600));
  r.set_idle_below(0.05);
  r.set_idle_for_seconds(4 * 3600);
  r.set_currency("EUR");
  r.set_wasted_milli_seconds(14'400'000);
  r.set_wasted_cost_micro(cost);
  r.set_unknown_milli_seconds(1'800'000);
  v1::WorkloadWaste* w = r.add_workloads();
  w->set_team("vision");
  w->set_namespace_("ml");
  w->set_workload("Job/train");
  w->set_held_milli_seconds(21'600'000);
  w->set_wasted_milli_seconds(14'400'000);
  w->set_wasted_cost_micro(cost);
  w->set_unknown_milli_seconds(1'800'000);
  w->set_run_count(1);
  w->set_busy_but_light(true);
  r.set_workload_count(3);
  v1::TeamWaste* t = r.add_teams();
  t->set_team("vision");
  t->set_wasted_milli_seconds(14'400'000);
  t->set_wasted_cost_micro(cost);
  t->set_unknown_milli_seconds(1'800'000);
  for (const char* team : {"vision", ""}) {
    v1::EfficiencyScore* e = r.add_efficiency();
    e->set_team(team);
    e->set_score(0.25);
    e->set_signal("duty_cycle");
    e->set_held_milli_seconds(21'600'000);
    e->set_observed_milli_seconds(19'800'000);
    e->set_active_milli_seconds(5'400'000);
  }
  return r;
}

TEST(WasteFormat, TheTableShowsHundredthsAndSaysWhenItRounded) {
  const std::string exact = WasteTable(AReport(8'000'000));
  EXPECT_THAT(exact, HasSubstr("wasted 8.00 EUR over 4.00 device-hours; 0.50 device-hours held without telemetry"));
  EXPECT_THAT(exact, HasSubstr("busy_but_light"));
  EXPECT_THAT(exact, HasSubstr("1 of 3 workloads shown"));
  EXPECT_THAT(exact, HasSubstr("25.0%"));
  EXPECT_THAT(exact, HasSubstr("(fleet)"));
  EXPECT_THAT(exact, Not(HasSubstr("rounded")));
  const std::string rounded = WasteTable(AReport(8'004'999));
  EXPECT_THAT(rounded, HasSubstr("wasted 8.00 EUR"));
  EXPECT_THAT(rounded, HasSubstr("figures rounded to the hundredth"));
}

TEST(WasteFormat, TheCsvKeepsEveryFigureExact) {
  const std::string csv = WasteCsv(AReport(8'004'999));
  EXPECT_THAT(csv, HasSubstr("workload,vision,ml,Job/train,21600000,14400000,1800000,8.004999,1,true,,\r\n"));
  EXPECT_THAT(csv, HasSubstr("team,vision,,,21600000,14400000,1800000,8.004999,,,0.250000,duty_cycle\r\n"));
  EXPECT_THAT(csv, HasSubstr("fleet,,,,21600000,14400000,1800000,8.004999,,,0.250000,duty_cycle\r\n"));
}

TEST(WasteFormat, JsonIsTheApisAndFormatsAreNamed) {
  EXPECT_THAT(WasteJson(AReport(1)), HasSubstr("\"wastedCostMicro\": \"1\""));
  EXPECT_EQ(*ParseReportFormat("csv"), ReportFormat::kCsv);
  EXPECT_EQ(ParseReportFormat("focus").status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace fleetcap::exports

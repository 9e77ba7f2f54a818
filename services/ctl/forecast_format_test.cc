#include "services/exports/forecast_format.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "services/ctl/forecast_commands.h"
#include "tests/support/status_matchers.h"

namespace fleetcap::ctl {

using exports::ForecastCsv;
using exports::ForecastJson;
using exports::ForecastTable;
using exports::ParseReportFormat;

namespace {

using ::fleetcap::testing::IsOk;
using ::fleetcap::testing::StatusIs;
using ::testing::HasSubstr;

constexpr int64_t kT0 = 1'767'225'600;  // 2026-01-01T00:00:00Z

// Two hours of history and two of forecast, with capacity and exhaustion.
v1::Forecast Sample(bool with_capacity) {
  v1::Forecast f;
  f.set_run_id(7);
  f.mutable_computed_at()->set_seconds(kT0 + 2 * 3600 + 65);
  f.set_flavor("h100");
  f.set_what("held");
  f.set_horizon_hours(2);
  f.set_resolution(v1::HOUR);
  f.set_model("holt_winters_daily");
  for (const auto& [name, value] : {std::pair<const char*, double>{"alpha", 0.25}, {"beta", 0.05}}) {
    v1::FitParameter* p = f.add_fit();
    p->set_name(name);
    p->set_value(value);
  }
  f.set_fallback_reason("series of 40 hours is shorter than two weeks");
  for (int i = 0; i < 2; ++i) {
    auto* h = f.add_history();
    h->mutable_start()->set_seconds(kT0 + i * 3600);
    h->set_milli(1500 + i * 12'345);
    auto* b = f.add_forecast();
    b->mutable_start()->set_seconds(kT0 + (2 + i) * 3600);
    b->set_p50_milli(14'000 + i);
    b->set_p90_milli(16'250 + i * 1000);
    if (with_capacity) {
      auto* c = f.add_capacity_history();
      c->mutable_start()->set_seconds(kT0 + i * 3600);
      c->set_milli(16'000);
      auto* d = f.add_capacity_forecast();
      d->mutable_start()->set_seconds(kT0 + (2 + i) * 3600);
      d->set_milli(16'000);
    }
  }
  if (with_capacity) f.mutable_exhaustion()->mutable_p90_day()->set_seconds(kT0);
  return f;
}

TEST(ForecastFormatTest, TableNamesTheRunModelAndExhaustionThenEveryBucket) {
  EXPECT_EQ(ForecastTable(Sample(true)),
            "forecast run 7 computed 2026-01-01T02:01:05Z\n"
            "flavor h100, all teams, held, 2 hours ahead by hour\n"
            "model holt_winters_daily (alpha=0.25 beta=0.05)\n"
            "fallback: series of 40 hours is shorter than two weeks\n"
            "capacity exhausted: p50 not within the horizon, p90 2026-01-01\n"
            "START                     KIND  DEVICES     P90  CAPACITY\n"
            "2026-01-01T00:00:00Z  history     1.500       -    16.000\n"
            "2026-01-01T01:00:00Z  history    13.845       -    16.000\n"
            "2026-01-01T02:00:00Z  forecast   14.000  16.250    16.000\n"
            "2026-01-01T03:00:00Z  forecast   14.001  17.250    16.000\n");
}

TEST(ForecastFormatTest, ATeamsTableHasNoCapacity) {
  v1::Forecast f = Sample(false);
  f.set_team("vision");
  f.clear_fallback_reason();
  f.clear_fit();
  EXPECT_EQ(ForecastTable(f),
            "forecast run 7 computed 2026-01-01T02:01:05Z\n"
            "flavor h100, team vision, held, 2 hours ahead by hour\n"
            "model holt_winters_daily\n"
            "START                     KIND  DEVICES     P90  CAPACITY\n"
            "2026-01-01T00:00:00Z  history     1.500       -         -\n"
            "2026-01-01T01:00:00Z  history    13.845       -         -\n"
            "2026-01-01T02:00:00Z  forecast   14.000  16.250         -\n"
            "2026-01-01T03:00:00Z  forecast   14.001  17.250         -\n");
}

TEST(ForecastFormatTest, CsvHasTheSameRowsWithEmptyCells) {
  EXPECT_EQ(ForecastCsv(Sample(true)),
            "start,kind,devices,p90_devices,capacity_devices\r\n"
            "2026-01-01T00:00:00Z,history,1.500,,16.000\r\n"
            "2026-01-01T01:00:00Z,history,13.845,,16.000\r\n"
            "2026-01-01T02:00:00Z,forecast,14.000,16.250,16.000\r\n"
            "2026-01-01T03:00:00Z,forecast,14.001,17.250,16.000\r\n");
}

TEST(ForecastFormatTest, JsonIsTheApisProto3Json) {
  const std::string json = ForecastJson(Sample(true));
  EXPECT_THAT(json, HasSubstr("\"runId\": \"7\""));
  EXPECT_THAT(json, HasSubstr("\"p90Milli\": \"17250\""));
  EXPECT_THAT(json, HasSubstr("\"p90Day\": \"2026-01-01T00:00:00Z\""));
  EXPECT_THAT(json, HasSubstr("\"resolution\": \"HOUR\""));
  EXPECT_EQ(json, ForecastJson(Sample(true)));  // stable
}

TEST(ForecastFormatTest, FormatsAreTableJsonAndCsv) {
  EXPECT_THAT(ParseReportFormat("csv"), IsOk());
  EXPECT_THAT(ParseReportFormat("json"), IsOk());
  EXPECT_THAT(ParseReportFormat("table"), IsOk());
  EXPECT_THAT(ParseReportFormat("yaml"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--format: \"yaml\" is not table, json or csv")));
}

TEST(ForecastRequestTest, FlagsBecomeTheRequest) {
  auto r = ForecastRequest("h100", "vision", "30d", "pending");
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->flavor(), "h100");
  EXPECT_EQ(r->team(), "vision");
  EXPECT_EQ(r->horizon_hours(), 720);
  EXPECT_EQ(r->what(), "pending");
  auto hours = ForecastRequest("h100", "", "72h", "held");
  ASSERT_THAT(hours, IsOk());
  EXPECT_EQ(hours->horizon_hours(), 72);
}

TEST(ForecastRequestTest, BadFlagsAreNamed) {
  EXPECT_THAT(ForecastRequest("", "", "90d", "held"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--flavor")));
  EXPECT_THAT(ForecastRequest("h100", "", "90d", "used"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--what")));
  for (const char* bad : {"91d", "0d", "2161h", "1w", "d", "-3d", "+3d", "3.5d", ""}) {
    EXPECT_THAT(ForecastRequest("h100", "", bad, "held"),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--horizon")))
        << bad;
  }
}

}  // namespace
}  // namespace fleetcap::ctl

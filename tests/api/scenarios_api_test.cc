// What-if scenarios through the HTTP API of the real fleetcap-api on
// PostgreSQL, on a small known fleet: two teams on ten H100s with four weeks
// of steady held history behind the fleet's chargeback watermark. A run answers the
// comparison and writes nothing; a save stores the scenario and its result.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "store/pg_chargeback_repository.h"
#include "store/pg_forecast_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/stored_chargeback.h"
#include "tests/support/table_rows.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

using fleetcap::testing::kApiBin;

constexpr const char* kPolicy = R"(version: 1
teams:
  - name: org
    kind: org
  - name: team-a
    parent: org
  - name: team-b
    parent: org
flavors:
  - name: h100
    model: H100
    capacity: 10
prices:
  - model: H100
    from: 2020-01-01T00:00:00Z
    per_device_hour: 2
allocation:
  - team: team-a
    flavor: h100
    guarantee: 4
  - team: team-b
    flavor: h100
    guarantee: 4
)";

// team-a doubles and the price goes to 3.
constexpr const char* kScenario = R"(version: 1
description: team-a doubles
demand:
  - team: team-a
    factor: 2
prices:
  - flavor: h100
    per_device_hour: 3
    from: 2020-01-01T00:00:00Z
)";

// What a run must leave as it was.
const char* const kLiveTables[] = {"policies",        "chargeback_hourly_by_team",
                                   "allocation_runs", "allocation_recommendations",
                                   "scenarios",       "pending_demand"};

std::string JsonString(const std::string& s) { return nlohmann::json(s).dump(); }

class ScenariosApiTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    ApiOnMigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    auto planner = testing::MintToken(db_->uri(), "planner");
    ASSERT_THAT(planner, IsOk());
    planner_ = *planner;
    auto applied = testing::HttpRequest("POST", api_->http_base() + "/v1/policy",
                                        absl::StrCat("{\"document\":", JsonString(kPolicy), "}"), api_->admin_token);
    ASSERT_THAT(applied, IsOk());
    ASSERT_EQ(applied->status, 200) << applied->body;
    // Four weeks of hours before the current one (the history a scenario reads): team-a holds 3
    // devices, team-b 1, every hour, which the forecast engine projects flat.
    watermark_ = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 3600 * 3600);
    {
      std::vector<testing::TeamHourRow> history;
      for (int h = 1; h <= 672; ++h) {
        for (const auto& [team, devices] : std::vector<std::pair<std::string, int64_t>>{{"team-a", 3}, {"team-b", 1}}) {
          testing::TeamHourRow row;
          row.cluster = "c1";
          row.hour = watermark_ - absl::Hours(h);
          row.team = team;
          row.model = "H100";
          row.line_kind = "workload";
          row.held_milli_seconds = devices * 3600000;
          history.push_back(row);
        }
      }
      pqxx::work txn(*conn_);
      testing::SeedTeamHours(txn, history);
      txn.commit();
    }
    store::PgChargebackRepository chargeback(pool());
    ASSERT_THAT(chargeback.AdvanceWatermark("", watermark_), IsOk());
  }

  absl::StatusOr<testing::HttpResult> Post(const std::string& path, const std::string& body) {
    return testing::HttpRequest("POST", api_->http_base() + path, body, planner_);
  }

  std::string LiveRows() {
    std::string rows;
    for (const char* table : kLiveTables) absl::StrAppend(&rows, table, ":\n", testing::TableRows(*conn_, table));
    return rows;
  }

  // Hours of the calendar month after now (UTC), which the bills project.
  int64_t NextMonthHours() {
    const absl::CivilMonth next = absl::CivilMonth(absl::ToCivilSecond(absl::Now(), absl::UTCTimeZone())) + 1;
    return (absl::FromCivil(next + 1, absl::UTCTimeZone()) - absl::FromCivil(next, absl::UTCTimeZone())) /
           absl::Hours(1);
  }

  std::string planner_;
  absl::Time watermark_;
};

int64_t Int(const nlohmann::json& j) { return std::stoll(j.get<std::string>()); }

TEST_F(ScenariosApiTest, ARunComparesWithTheBaselineAndWritesNothing) {
  const std::string before = LiveRows();
  auto response = Post("/v1/scenarios/run", absl::StrCat("{\"scenarioYaml\":", JsonString(kScenario), "}"));
  ASSERT_THAT(response, IsOk());
  ASSERT_EQ(response->status, 200) << response->body;
  EXPECT_EQ(LiveRows(), before);

  const nlohmann::json c = nlohmann::json::parse(response->body);
  const int64_t hours = NextMonthHours();
  EXPECT_EQ(c["historyEnd"], FormatRfc3339(watermark_));
  EXPECT_EQ(c["currency"], "USD");
  const nlohmann::json& base = c["baseline"];
  const nlohmann::json& scen = c["scenario"];
  EXPECT_EQ(base["policyVersion"], 1);
  // Three and one devices projected, at 2 and then 3 a device-hour.
  ASSERT_EQ(base["bills"].size(), 2u);
  EXPECT_EQ(base["bills"][0]["team"], "team-a");
  EXPECT_EQ(Int(base["bills"][0]["micro"]), 3 * 2 * hours * 1'000'000);
  EXPECT_EQ(Int(base["bills"][1]["micro"]), 1 * 2 * hours * 1'000'000);
  EXPECT_EQ(Int(base["totalMicro"]), 10 * 2 * hours * 1'000'000);
  EXPECT_EQ(Int(scen["bills"][0]["micro"]), 6 * 3 * hours * 1'000'000);
  EXPECT_EQ(Int(scen["bills"][1]["micro"]), 1 * 3 * hours * 1'000'000);
  EXPECT_EQ(Int(scen["idleMicro"]), 3 * 3 * hours * 1'000'000);
  EXPECT_EQ(Int(scen["totalMicro"]), 10 * 3 * hours * 1'000'000);
  EXPECT_EQ(Int(base["flavors"][0]["utilisationPpm"]), 400'000);
  EXPECT_EQ(Int(scen["flavors"][0]["utilisationPpm"]), 700'000);
  // Steady histories: every candidate of the engine's backtest forecasts them
  // exactly, and the tie goes to the simplest.
  EXPECT_EQ(scen["flavors"][0]["model"], "seasonal_naive");
  EXPECT_EQ(scen["projectionModels"]["seasonal_naive"], "2");
  // Demand measured from the held history, team-a's doubled, each with the
  // policy's default headroom of 20% on top.
  ASSERT_EQ(base["recommendations"].size(), 2u);
  EXPECT_EQ(Int(base["recommendations"][0]["demandMilli"]), 3600);
  EXPECT_EQ(Int(scen["recommendations"][0]["demandMilli"]), 7200);
  EXPECT_EQ(Int(scen["recommendations"][1]["demandMilli"]), 1200);
}

TEST_F(ScenariosApiTest, AnEmptyScenarioReproducesTheStoredForecastAndItsBills) {
  // The forecast pass's run from the watermark: team-a 2.5 devices, team-b 0.5,
  // not the 3 and 1 the held history would project.
  store::ForecastRunDraft run;
  run.header.computed_at = watermark_;
  run.header.history_start = watermark_ - absl::Hours(1);
  run.header.forecast_start = watermark_;
  run.header.horizon_hours = 2160;
  auto series = [&](const std::string& team, int64_t milli, const std::string& model) {
    store::ForecastSeriesRecord r;
    r.flavor = "h100";
    r.team = team;
    r.model = model;
    r.history = {milli};
    r.p50.assign(2160, milli);
    r.p90.assign(2160, milli + 500);
    return r;
  };
  run.series = {series("team-a", 2500, "holt_winters_weekly"), series("team-b", 500, "seasonal_naive"),
                series("", 3000, "holt_winters_weekly")};
  store::PgForecastRepository forecasts(pool());
  auto id = forecasts.StoreRun(run);
  ASSERT_THAT(id, IsOk());

  auto response = Post("/v1/scenarios/run", absl::StrCat("{\"scenarioYaml\":", JsonString("version: 1\n"), "}"));
  ASSERT_THAT(response, IsOk());
  ASSERT_EQ(response->status, 200) << response->body;
  const nlohmann::json c = nlohmann::json::parse(response->body);
  const int64_t hours = NextMonthHours();
  for (const char* side : {"baseline", "scenario"}) {
    SCOPED_TRACE(side);
    const nlohmann::json& s = c[side];
    EXPECT_EQ(Int(s["forecastRunId"]), *id);
    ASSERT_EQ(s["bills"].size(), 2u);
    EXPECT_EQ(Int(s["bills"][0]["heldMilliHours"]), 2500 * hours);
    EXPECT_EQ(Int(s["bills"][1]["heldMilliHours"]), 500 * hours);
    // What those hours cost at today's price, 2 a device-hour.
    EXPECT_EQ(Int(s["bills"][0]["micro"]), 2500 * hours * 2000);
    EXPECT_EQ(Int(s["bills"][1]["micro"]), 500 * hours * 2000);
    EXPECT_TRUE(s["bills"][0]["unknownFlavors"].empty());
    EXPECT_EQ(Int(s["flavors"][0]["heldMilliHours"]), 3000 * hours);
    EXPECT_EQ(s["flavors"][0]["heldUnknown"], false);
    EXPECT_EQ(s["flavors"][0]["model"], "holt_winters_weekly");
    EXPECT_EQ(s["projectionModels"]["seasonal_naive"], "1");
  }
}

TEST_F(ScenariosApiTest, ASavedScenarioListsAndReadsBackWithItsResult) {
  auto saved =
      Post("/v1/scenarios", absl::StrCat("{\"name\":\"double a\",\"scenarioYaml\":", JsonString(kScenario), "}"));
  ASSERT_THAT(saved, IsOk());
  ASSERT_EQ(saved->status, 200) << saved->body;
  const nlohmann::json s = nlohmann::json::parse(saved->body);
  const std::string id = s["id"];
  EXPECT_EQ(s["name"], "double a");
  EXPECT_EQ(s["policyVersion"], 1);

  auto list = testing::HttpGet(api_->http_base() + "/v1/scenarios", planner_);
  ASSERT_THAT(list, IsOk());
  ASSERT_EQ(list->status, 200) << list->body;
  const nlohmann::json l = nlohmann::json::parse(list->body);
  ASSERT_EQ(l["scenarios"].size(), 1u);
  EXPECT_EQ(l["scenarios"][0]["id"], id);
  EXPECT_FALSE(l["scenarios"][0].contains("result"));

  auto got = testing::HttpGet(api_->http_base() + "/v1/scenarios/get?id=" + id, planner_);
  ASSERT_THAT(got, IsOk());
  ASSERT_EQ(got->status, 200) << got->body;
  const nlohmann::json g = nlohmann::json::parse(got->body);
  EXPECT_EQ(g["scenarioYaml"], kScenario);
  EXPECT_EQ(g["result"], s["result"]);
  EXPECT_EQ(g["savedBy"], s["savedBy"]);

  auto missing = testing::HttpGet(api_->http_base() + "/v1/scenarios/get?id=999", planner_);
  ASSERT_THAT(missing, IsOk());
  EXPECT_EQ(missing->status, 404) << missing->body;
}

TEST_F(ScenariosApiTest, ABadScenarioIs400NamingTheLineAndField) {
  const std::string before = LiveRows();
  auto response =
      Post("/v1/scenarios/run", absl::StrCat("{\"scenarioYaml\":", JsonString("version: 1\nbudget: 3\n"), "}"));
  ASSERT_THAT(response, IsOk());
  EXPECT_EQ(response->status, 400);
  EXPECT_THAT(response->body, HasSubstr("scenario:2:1: budget: unknown key"));
  auto unknown = Post(
      "/v1/scenarios/run",
      absl::StrCat("{\"scenarioYaml\":", JsonString("version: 1\ndemand:\n  - team: ghost\n    factor: 2\n"), "}"));
  ASSERT_THAT(unknown, IsOk());
  EXPECT_EQ(unknown->status, 400);
  EXPECT_THAT(unknown->body, HasSubstr("scenario:3: demand[0].team: unknown team"));
  auto huge = Post("/v1/scenarios/run", absl::StrCat("{\"scenarioYaml\":\"", std::string(600 * 1024, 'a'), "\"}"));
  ASSERT_THAT(huge, IsOk());
  EXPECT_EQ(huge->status, 400);
  EXPECT_THAT(huge->body, HasSubstr("request body"));
  auto unnamed = Post("/v1/scenarios", absl::StrCat("{\"scenarioYaml\":", JsonString(kScenario), "}"));
  ASSERT_THAT(unnamed, IsOk());
  EXPECT_EQ(unnamed->status, 400);
  EXPECT_THAT(unnamed->body, HasSubstr("name"));
  EXPECT_EQ(LiveRows(), before);
}

}  // namespace
}  // namespace fleetcap

// Forecasts end to end: the real fleetcap-optimizer on a real PostgreSQL
// turns five hours of chargeback it computed and a pod left waiting into a
// stored forecast run, once per UTC day; the real fleetcap-api serves it on
// GET /v1/forecast and fleetcapctl prints it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "store/pg_control_repositories.h"
#include "store/pg_forecast_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_database.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

using fleetcap::testing::kApiBin;

// vision owns ml, speech owns asr; four H100s in service.
constexpr const char* kPolicy = R"(version: 1
teams:
  - name: vision
  - name: speech
namespaces:
  - namespace: ml
    team: vision
  - namespace: asr
    team: speech
flavors:
  - name: h100
    model: H100
    capacity: 4
prices:
  - model: H100
    from: 2025-01-01T00:00:00Z
    per_device_hour: "3.60"
)";

absl::Time HourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

class ForecastDaemonTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    testing::ApiOnMigratedDatabaseTest<kApiBin>::SetUp();
    if (HasFatalFailure()) return;
    // Five whole hours of history: vision's pod holds two H100s throughout,
    // speech's half of one; another speech pod has waited two hours for two.
    const absl::Time now = RealClock::Instance()->Now();
    h0_ = HourOf(now) - absl::Hours(5);
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"H100", "nvidia", "nvidia.com/gpu"}};
    c.nodes = {{{"node-1", "", 0, 0, h0_, std::nullopt}, ""}};
    for (int i = 0; i < 4; ++i) {
      c.devices.push_back({absl::StrCat("GPU-", i), "node-1", i, "H100", h0_, std::nullopt});
    }
    c.pods = {
        {{"uid-v", "ml", "train-0", "", "Job", "train", "Running", h0_, h0_, std::nullopt, 2000, false}, "node-1"},
        {{"uid-s", "asr", "asr-0", "", "Job", "asr", "Running", h0_, h0_, std::nullopt, 500, false}, "node-1"},
        {{"uid-p", "asr", "asr-1", "", "Job", "asr", "Pending", now - absl::Hours(2), std::nullopt, std::nullopt, 2000,
          true},
         ""}};
    c.holds = {{"uid-v", "GPU-0", 1000, h0_, std::nullopt},
               {"uid-v", "GPU-1", 1000, h0_, std::nullopt},
               {"uid-s", "GPU-2", 500, h0_, std::nullopt}};
    c.demands = {{"uid-p", "nvidia.com/gpu", "H100", 2000, now - absl::Hours(2), std::nullopt}};
    store::PgLiveInventoryRepository inventory(pool());
    ASSERT_THAT(inventory.Apply(c), IsOk());
    store::PgPolicyRepository policies(pool());
    store::PolicyVersionRecord policy;
    policy.document = kPolicy;
    policy.applied_by = "test";
    store::AuditEntry audit;
    audit.actor = "test";
    audit.action = "policy.apply";
    ASSERT_THAT(policies.Apply(policy, std::nullopt, audit), IsOk());
  }

  testing::RunResult Once() {
    return testing::Run({fleetcap::testing::kOptimizerBin, "--once", "--db", db_->uri(), "--close-delay", "0s",
                         "--forecast-lookback", "5h", "--forecast-horizon", "48h"});
  }

  testing::RunResult Ctl(std::vector<std::string> args, const std::string& token) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin, "forecast", "--server",
                                     api_->grpc_address(),       "--token",  token};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::Run(argv);
  }

  absl::Time h0_;
};

TEST_F(ForecastDaemonTest, StoresADailyRunServedByTheApiAndFleetcapctl) {
  const testing::RunResult first = Once();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_THAT(first.out, HasSubstr("fleetcap-optimizer: forecast run 1 stored"));
  // Once per UTC day: a second pass the same day stores nothing.
  const testing::RunResult second = Once();
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.out, HasSubstr("fleetcap-optimizer: forecast not run: done this interval"));

  store::PgForecastRepository forecasts(pool());
  auto run = forecasts.LatestRun();
  ASSERT_THAT(run, IsOk());
  ASSERT_TRUE(run->has_value());
  EXPECT_EQ((*run)->run_id, 1);
  EXPECT_EQ((*run)->horizon_hours, 48);
  const absl::Time end = (*run)->forecast_start;
  EXPECT_EQ((*run)->history_start, end - absl::Hours(5));

  auto planner = testing::MintToken(db_->uri(), "planner");
  ASSERT_THAT(planner, IsOk());
  // The flavor's total: every hour of the history held 2.5 devices (the
  // hours before h0, if the watermark moved on, held nothing).
  auto total = testing::HttpGet(api_->http_base() + "/v1/forecast?flavor=h100&horizon=48h", *planner);
  ASSERT_THAT(total, IsOk());
  ASSERT_EQ(total->status, 200) << total->body;
  const nlohmann::json t = nlohmann::json::parse(total->body);
  EXPECT_EQ(t["runId"], "1");
  EXPECT_EQ(t["resolution"], "HOUR");
  ASSERT_EQ(t["history"].size(), 5u);
  EXPECT_EQ(t["history"][4]["milli"], "2500");
  EXPECT_EQ(t["history"][4]["start"], FormatRfc3339(end - absl::Hours(1)));
  ASSERT_EQ(t["forecast"].size(), 48u);
  EXPECT_EQ(t["forecast"][0]["start"], FormatRfc3339(end));
  EXPECT_FALSE(t["model"].get<std::string>().empty());
  // Five hours are too few for a season: the engine says which model it fell back to, and why.
  EXPECT_FALSE(t["fallbackReason"].get<std::string>().empty()) << total->body;
  ASSERT_EQ(t["capacityHistory"].size(), 5u);
  EXPECT_EQ(t["capacityHistory"][4]["milli"], "4000");
  ASSERT_EQ(t["capacityForecast"].size(), 48u);
  EXPECT_EQ(t["capacityForecast"][47]["milli"], "4000");

  // One team's pending demand: speech's pod waited through the last hour for two devices.
  auto pending =
      testing::HttpGet(api_->http_base() + "/v1/forecast?flavor=h100&team=speech&what=pending&horizon=2d", *planner);
  ASSERT_THAT(pending, IsOk());
  ASSERT_EQ(pending->status, 200) << pending->body;
  const nlohmann::json p = nlohmann::json::parse(pending->body);
  EXPECT_EQ(p["history"][4]["milli"], "2000");
  EXPECT_EQ(p["what"], "pending");

  // A bad query value is a 400 naming the parameter.
  auto bad = testing::HttpGet(api_->http_base() + "/v1/forecast?flavor=h100&horizon=91d", *planner);
  ASSERT_THAT(bad, IsOk());
  EXPECT_EQ(bad->status, 400);
  EXPECT_THAT(bad->body, HasSubstr("horizon"));

  // fleetcapctl: vision's held series as CSV, history then forecast, capacity withheld from a team token.
  auto vision = testing::MintToken(db_->uri(), "team:vision");
  ASSERT_THAT(vision, IsOk());
  const testing::RunResult csv =
      Ctl({"--flavor", "h100", "--team", "vision", "--horizon", "48h", "--format", "csv"}, *vision);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::vector<std::string> lines = absl::StrSplit(csv.out, "\r\n", absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 1u + 5u + 48u) << csv.out;
  EXPECT_EQ(lines[0], "start,kind,devices,p90_devices,capacity_devices");
  EXPECT_EQ(lines[5], absl::StrCat(FormatRfc3339(end - absl::Hours(1)), ",history,2.000,,"));
  EXPECT_THAT(lines[6], HasSubstr(absl::StrCat(FormatRfc3339(end), ",forecast,")));
  // The team may not read the flavor's total.
  const testing::RunResult denied = Ctl({"--flavor", "h100"}, *vision);
  EXPECT_NE(denied.exit_code, 0);
  EXPECT_THAT(denied.err, HasSubstr("outside the scope"));
  // The table names the model and the exhaustion days for a planner.
  const testing::RunResult table = Ctl({"--flavor", "h100", "--horizon", "48h"}, *planner);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("forecast run 1 computed "));
  EXPECT_THAT(table.out, HasSubstr("capacity exhausted: p50 "));
}

}  // namespace
}  // namespace fleetcap

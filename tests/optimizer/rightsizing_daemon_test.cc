// Rightsizing end to end: the real fleetcap-optimizer on a real PostgreSQL
// turns a pod's holds and its per-minute readings into stored
// recommendations, once a UTC day per cluster; the real fleetcap-api serves
// them on GET /v1/insights/rightsizing and fleetcapctl prints them.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/clock.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "store/pg_control_repositories.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_rightsizing_repository.h"
#include "store/pg_usage_repository.h"
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
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;

using fleetcap::testing::kApiBin;

// vision owns ml, ads nothing; a one-day lookback.
constexpr const char* kPolicy = R"(version: 1
teams:
  - name: vision
  - name: ads
namespaces:
  - namespace: ml
    team: vision
prices:
  - model: H100-SXM5-80GB
    from: 2025-01-01T00:00:00Z
    per_device_hour: "4.00"
insights:
  rightsizing_lookback_days: 1
)";

absl::Time HourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

class RightsizingDaemonTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    testing::ApiOnMigratedDatabaseTest<kApiBin>::SetUp();
    if (HasFatalFailure()) return;
    // A training pod holds 8 H100s since the day before; over the last
    // three whole hours (the lookback's end is the current whole hour) g0..g2
    // are busy, the other five idle.
    end_ = HourOf(RealClock::Instance()->Now());
    const absl::Time since = end_ - absl::Hours(30);
    store::InventoryChanges c;
    c.cluster = "c1";
    c.types = {{"H100-SXM5-80GB", "nvidia", "nvidia.com/gpu"}};
    c.nodes = {{{"node-1", "", 0, 0, since, std::nullopt}, ""}};
    for (int i = 0; i < 8; ++i) {
      c.devices.push_back({absl::StrCat("GPU-", i), "node-1", i, "H100-SXM5-80GB", since, std::nullopt});
      c.holds.push_back({"uid-t", absl::StrCat("GPU-", i), 1000, since, std::nullopt});
    }
    c.pods = {
        {{"uid-t", "ml", "train-0", "", "Job", "train", "Running", since, since, std::nullopt, 8000, false}, "node-1"}};
    store::PgLiveInventoryRepository inventory(pool());
    ASSERT_THAT(inventory.Apply(c), IsOk());
    std::vector<store::UsageMinuteRow> rows;
    for (absl::Time m = end_ - absl::Hours(3); m < end_; m += absl::Minutes(1)) {
      for (int i = 0; i < 8; ++i) {
        store::UsageMinuteRow r;
        r.device_id = absl::StrCat("GPU-", i);
        r.pod_uid = "uid-t";
        r.minute_ms = absl::ToUnixMillis(m);
        r.namespace_ = "ml";
        r.pod = "train-0";
        r.util_mean = i < 3 ? 0.8 : 0.01;
        r.memory_used_bytes = 50'000'000'000;
        r.memory_total_bytes = 80'000'000'000;
        r.samples = 4;
        rows.push_back(r);
      }
    }
    store::PgUsageRepository usage(pool());
    ASSERT_THAT(usage.WriteMinutes("c1", rows, "pull"), IsOk());
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
    return testing::Run({fleetcap::testing::kOptimizerBin, "--once", "--db", db_->uri(), "--close-delay", "0s"});
  }

  testing::RunResult Ctl(std::vector<std::string> args, const std::string& token) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin, "insights", "rightsize", "--server",
                                     api_->grpc_address(),       "--token",  token};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::Run(argv);
  }

  absl::StatusOr<testing::HttpResult> Get(const std::string& query, const std::string& token) {
    return testing::HttpGet(api_->http_base() + "/v1/insights/rightsizing" + query, token);
  }

  absl::Time end_;
};

TEST_F(RightsizingDaemonTest, StoresEachClustersRecommendationsOnceADay) {
  const testing::RunResult first = Once();
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_THAT(first.out, HasSubstr("fleetcap-optimizer: rightsizing stored for 1 clusters, 1 recommendations"));
  const testing::RunResult second = Once();
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_THAT(second.out, ::testing::Not(HasSubstr("rightsizing stored"))) << "once a UTC day";

  store::PgRightsizingRepository stored(pool());
  auto runs = stored.Latest({});
  ASSERT_THAT(runs, IsOk());
  ASSERT_EQ(runs->size(), 1u);
  const store::RightsizingRun& run = (*runs)[0];
  EXPECT_EQ(run.cluster, "c1");
  EXPECT_EQ(run.lookback_end, end_);
  EXPECT_EQ(run.lookback_start, end_ - absl::Hours(24));
  EXPECT_EQ(run.currency, "USD");
  // Held 8 devices for the whole day: 8000; 3 of 8 busy in every one of the
  // 180 observed minutes -> 3 devices, 3000; (8000 - 3000) x 4.00 x 720 /
  // 1000 = 14400.00 a month, low confidence (under a day of minutes).
  EXPECT_THAT(
      run.recommendations,
      ElementsAre(AllOf(
          Field(&store::RightsizingRecord::team, "vision"), Field(&store::RightsizingRecord::namespace_name, "ml"),
          Field(&store::RightsizingRecord::workload, "Job/train"),
          Field(&store::RightsizingRecord::kind, "fewer_devices"),
          Field(&store::RightsizingRecord::current, "8 x H100-SXM5-80GB"),
          Field(&store::RightsizingRecord::proposed, "3 x H100-SXM5-80GB"),
          Field(&store::RightsizingRecord::current_milli, 8000), Field(&store::RightsizingRecord::proposed_milli, 3000),
          Field(&store::RightsizingRecord::savings_micro_per_month, 14'400'000'000),
          Field(&store::RightsizingRecord::observed_minutes, 180),
          Field(&store::RightsizingRecord::confidence, "low"))));
}

}  // namespace
}  // namespace fleetcap

namespace fleetcap {
namespace {

TEST_F(RightsizingDaemonTest, ServedToPlannersAndToTheTeamItIsForOnly) {
  const testing::RunResult once = Once();
  ASSERT_EQ(once.exit_code, 0) << once.err;
  auto planner = testing::MintToken(db_->uri(), "planner");
  auto vision = testing::MintToken(db_->uri(), "team:vision");
  auto ads = testing::MintToken(db_->uri(), "team:ads");
  ASSERT_THAT(planner, IsOk());
  ASSERT_THAT(vision, IsOk());
  ASSERT_THAT(ads, IsOk());

  auto all = Get("", *planner);
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->status, 200) << all->body;
  const nlohmann::json report = nlohmann::json::parse(all->body);
  EXPECT_EQ(report["currency"], "USD");
  EXPECT_EQ(report["recommendationCount"], 1);
  EXPECT_EQ(report["savingsMicroPerMonth"], "14400000000");
  EXPECT_EQ(report["end"], FormatRfc3339(end_));
  ASSERT_EQ(report["recommendations"].size(), 1u);
  EXPECT_EQ(report["recommendations"][0]["kind"], "fewer_devices");
  EXPECT_EQ(report["recommendations"][0]["cluster"], "c1");
  EXPECT_THAT(report["recommendations"][0]["evidence"].get<std::string>(), HasSubstr("3.00 of the 8 held"));

  // vision's own; ads has none, and may not ask for vision's.
  auto own = Get("?team=vision&namespace=ml&cluster=c1&limit=1", *vision);
  ASSERT_THAT(own, IsOk());
  ASSERT_EQ(own->status, 200) << own->body;
  EXPECT_EQ(nlohmann::json::parse(own->body)["recommendations"].size(), 1u);
  auto none = Get("", *ads);
  ASSERT_THAT(none, IsOk());
  ASSERT_EQ(none->status, 200) << none->body;
  EXPECT_THAT(none->body, ::testing::Not(HasSubstr("Job/train")));
  auto denied = Get("?team=vision", *ads);
  ASSERT_THAT(denied, IsOk());
  EXPECT_EQ(denied->status, 403) << denied->body;

  // Hostile parameters: 400 naming the parameter.
  for (const std::string& query : {std::string("?limit=-1"), std::string("?limit=1000000000000"),
                                   std::string("?limit=1001"), std::string("?limit=ten")}) {
    auto bad = Get(query, *planner);
    ASSERT_THAT(bad, IsOk());
    EXPECT_EQ(bad->status, 400) << query << ": " << bad->body;
    EXPECT_THAT(bad->body, HasSubstr("limit")) << query;
  }
  for (const std::string& query : {std::string("?team=vi%00sion"), std::string("?cluster=%FF"),
                                   std::string("?namespace=") + std::string(10000, 'n')}) {
    auto bad = Get(query, *planner);
    ASSERT_THAT(bad, IsOk());
    EXPECT_EQ(bad->status, 400) << query << ": " << bad->body;
  }
  auto unknown = Get("?start=2026-01-01T00:00:00Z", *planner);
  ASSERT_THAT(unknown, IsOk());
  EXPECT_EQ(unknown->status, 400);
  EXPECT_THAT(unknown->body, HasSubstr("start"));

  // fleetcapctl: the table to the hundredth, the CSV exact.
  const testing::RunResult table = Ctl({}, *vision);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("1 recommendations, up to 14400.00 a month"));
  EXPECT_THAT(table.out, HasSubstr("8 x H100-SXM5-80GB"));
  EXPECT_THAT(table.out, HasSubstr("3 x H100-SXM5-80GB"));
  const testing::RunResult csv = Ctl({"--format", "csv", "--cluster", "c1"}, *planner);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const std::vector<std::string> lines = absl::StrSplit(csv.out, "\r\n", absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 2u) << csv.out;
  EXPECT_THAT(lines[1], HasSubstr("c1,vision,ml,Job/train,H100-SXM5-80GB,fewer_devices,8 x H100-SXM5-80GB,"
                                  "3 x H100-SXM5-80GB,8000,3000,14400.00,USD,180,low,"));
  const testing::RunResult bad_limit = Ctl({"--limit", "-3"}, *planner);
  EXPECT_EQ(bad_limit.exit_code, 2);
  EXPECT_THAT(bad_limit.err, HasSubstr("--limit"));
  const testing::RunResult not_theirs = Ctl({"--team", "vision"}, *ads);
  EXPECT_NE(not_theirs.exit_code, 0);
  EXPECT_THAT(not_theirs.err, HasSubstr("outside the scope"));
}

}  // namespace
}  // namespace fleetcap

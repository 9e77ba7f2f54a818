// InsightsService.GetBudgets over GET /v1/insights/budgets and gRPC against
// the real fleetcap-api on PostgreSQL: a policy with budgets and nine days of
// chargeback lines of two clusters, written through the store's repository,
// the fleet's watermark inside the month. Each budget's spend is the lines of
// its team's subtree in the month before the watermark, summed here from the
// lines as written; its rest the documented rule (docs/insights.md,
// "Budgets") worked out here from the same lines; a team token sees its
// subtree's budgets only; hostile parameters are refused naming them.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/pg_pool.h"
#include "common/time_util.h"
#include "fleetcap/v1/insights.grpc.pb.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "google/protobuf/util/json_util.h"
#include "grpcpp/grpcpp.h"
#include "proto_time.h"
#include "services/exports/exact_decimal.h"
#include "store/pg_chargeback_repository.h"
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
using ::testing::ElementsAre;
using ::testing::HasSubstr;

absl::Time At(const char* text) { return *ParseRfc3339("at", text); }

// Lines from 2026-11-24 to 2026-12-03T08:00; the fleet computed through 05:00.
const absl::Time kFirstHour = At("2026-11-24T00:00:00Z");
const absl::Time kLastHourEnd = At("2026-12-03T08:00:00Z");
const absl::Time kWatermark = At("2026-12-03T05:00:00Z");

std::string Policy() {
  // A budget for ads in the month of the test's own clock too: the default `at` is now.
  const absl::CivilMonth now = absl::ToCivilMonth(absl::Now(), absl::UTCTimeZone());
  return absl::StrCat(
      R"(version: 1
currency: EUR
teams:
  - name: research
    kind: org
  - name: vision
    parent: research
  - name: vision-detect
    parent: vision
  - name: ads
    kind: org
budgets:
  - {team: research, month: 2026-12, amount: "10"}
  - {team: vision, month: 2026-12, amount: "1"}
  - {team: ads, month: 2026-12, amount: "500"}
)",
      now == absl::CivilMonth(2026, 12)
          ? ""
          : absl::StrFormat("  - {team: ads, month: %04d-%02d, amount: \"1\"}\n", now.year(), now.month()));
}

// Figures vary by hour and cluster, so that a sum over the wrong hours or
// teams shows; `idle` belongs to nobody's budget.
std::vector<store::ChargebackLineRecord> Lines(const std::string& cluster) {
  std::vector<store::ChargebackLineRecord> out;
  int64_t i = cluster == "c1" ? 1 : 7;
  for (absl::Time h = kFirstHour; h < kLastHourEnd; h += absl::Hours(1), ++i) {
    for (const char* team : {"vision", "vision-detect", "ads", "idle"}) {
      store::ChargebackLineRecord l;
      l.hour = h;
      l.cluster = cluster;
      l.team = team;
      l.model = "A100";
      l.line_kind = std::string(team) == "idle" ? "idle" : "workload";
      if (l.line_kind == "workload") {
        l.namespace_name = std::string(team) + "-ns";
        l.workload = "Job/" + std::string(team);
      }
      l.direct_cost_micro = l.total_cost_micro = 1'000 * (i % 13) + 17 * static_cast<int64_t>(l.team.size());
      out.push_back(l);
    }
  }
  return out;
}

class BudgetsApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto db = testing::TestDatabase::Migrated();
    ASSERT_THAT(db, IsOk());
    db_ = db->release();
    auto api = testing::StartApi(fleetcap::testing::kApiBin, db_->uri());
    ASSERT_THAT(api, IsOk());
    api_ = new testing::ApiProcess(std::move(*api));
    tokens_["admin"] = api_->admin_token;
    for (const char* role : {"team:vision", "team:ads"}) {
      auto token = testing::MintToken(db_->uri(), role);
      ASSERT_THAT(token, IsOk());
      tokens_[role] = *token;
    }
    auto stub =
        v1::PolicyService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + api_->admin_token);
    v1::ApplyPolicyRequest apply;
    apply.set_document(Policy());
    v1::ApplyPolicyResponse applied;
    grpc::Status status = stub->ApplyPolicy(&context, apply, &applied);
    ASSERT_TRUE(status.ok()) << status.error_message();
    auto pool = PgPool::Open(db_->uri(), 1);
    ASSERT_THAT(pool, IsOk());
    store::PgChargebackRepository repo(pool->get());
    for (const char* cluster : {"c1", "c2"}) {
      const auto lines = Lines(cluster);
      ASSERT_THAT(repo.ReplaceHours(cluster, kFirstHour, kLastHourEnd, lines, {}), IsOk());
      lines_->insert(lines_->end(), lines.begin(), lines.end());
      ASSERT_THAT(repo.AdvanceWatermark(cluster, kLastHourEnd), IsOk());
    }
    ASSERT_THAT(repo.AdvanceWatermark("", kWatermark), IsOk());
  }
  static void TearDownTestSuite() {
    delete api_;
    delete db_;
  }

  static absl::StatusOr<testing::HttpResult> Get(const std::string& query, const std::string& role = "admin") {
    return testing::HttpGet(api_->http_base() + "/v1/insights/budgets" + query, tokens_.at(role));
  }

  static v1::BudgetReport Report(const std::string& query, const std::string& role = "admin") {
    auto http = Get(query, role);
    EXPECT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 200) << http->body;
    v1::BudgetReport report;
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(http->body, &report).ok()) << http->body;
    return report;
  }

  // The cost of `teams` over [from, to), from the lines as written.
  static int64_t Cost(const std::vector<std::string>& teams, absl::Time from, absl::Time to) {
    int64_t sum = 0;
    for (const auto& l : *lines_) {
      if (l.hour >= from && l.hour < to && std::find(teams.begin(), teams.end(), l.team) != teams.end()) {
        sum += l.total_cost_micro;
      }
    }
    return sum;
  }

  static inline testing::TestDatabase* db_ = nullptr;
  static inline testing::ApiProcess* api_ = nullptr;
  static inline std::map<std::string, std::string> tokens_;
  static inline auto* lines_ = new std::vector<store::ChargebackLineRecord>();
};

std::vector<std::string> TeamsOf(const v1::BudgetReport& report) {
  std::vector<std::string> teams;
  for (const v1::Budget& b : report.budgets()) teams.push_back(b.team());
  return teams;
}

// Spent: the month's lines before the watermark. Rest: the 7 complete days
// before the watermark's day (11-26 to 12-02), as a rate over 604800 s, times
// the 691 hours from the watermark to the month's end, rounded half up.
TEST_F(BudgetsApiTest, EachBudgetIsItsSubtreesSpendAndTheRestAtTheLastWeeksRate) {
  const v1::BudgetReport report = Report("?at=2026-12-03T07:30:00Z");
  EXPECT_EQ(report.currency(), "EUR");
  ASSERT_THAT(TeamsOf(report), ElementsAre("ads", "research", "vision"));
  const std::map<std::string, std::vector<std::string>> subtree = {
      {"ads", {"ads"}}, {"research", {"vision", "vision-detect"}}, {"vision", {"vision", "vision-detect"}}};
  for (const v1::Budget& b : report.budgets()) {
    SCOPED_TRACE(b.team());
    const auto& teams = subtree.at(b.team());
    const int64_t spent = Cost(teams, At("2026-12-01T00:00:00Z"), kWatermark);
    const int64_t week = Cost(teams, At("2026-11-26T00:00:00Z"), At("2026-12-03T00:00:00Z"));
    const int64_t rest = (2 * week * 691 * 3600 + 604800) / (2 * 604800);
    EXPECT_EQ(b.month(), "2026-12");
    EXPECT_EQ(FromProtoTimestamp(b.through()), kWatermark);
    EXPECT_EQ(b.spent_micro(), spent);
    EXPECT_GT(b.spent_micro(), 0);
    EXPECT_EQ(b.forecast_rest_micro(), rest);
    EXPECT_EQ(b.projected_micro(), spent + rest);
    const char* status = spent > b.amount_micro()          ? "over"
                         : spent + rest > b.amount_micro() ? "projected_over"
                                                           : "under";
    EXPECT_EQ(b.status(), status);
    EXPECT_THAT(b.method(), HasSubstr("7 complete UTC days 2026-11-26 to 2026-12-02"));
  }
  // The seeded figures reach each status once.
  EXPECT_EQ(report.budgets(0).status(), "under");           // ads, 500.00
  EXPECT_EQ(report.budgets(1).status(), "projected_over");  // research, 10.00
  EXPECT_EQ(report.budgets(2).status(), "over");            // vision, 1.00
}

// Before the watermark, through the hour holding `at`.
TEST_F(BudgetsApiTest, AnEarlierInstantIsCountedThroughItsHour) {
  const v1::BudgetReport report = Report("?team=vision&at=2026-12-02T10:59:59Z");
  ASSERT_THAT(TeamsOf(report), ElementsAre("vision"));
  EXPECT_EQ(FromProtoTimestamp(report.budgets(0).through()), At("2026-12-02T10:00:00Z"));
  EXPECT_EQ(report.budgets(0).spent_micro(),
            Cost({"vision", "vision-detect"}, At("2026-12-01T00:00:00Z"), At("2026-12-02T10:00:00Z")));
}

TEST_F(BudgetsApiTest, WithoutAtTheMonthIsNows) {
  const absl::CivilMonth now = absl::ToCivilMonth(absl::Now(), absl::UTCTimeZone());
  const v1::BudgetReport report = Report("?team=ads");
  ASSERT_EQ(report.budgets_size(), 1);
  EXPECT_EQ(report.budgets(0).month(), absl::StrFormat("%04d-%02d", now.year(), now.month()));
}

TEST_F(BudgetsApiTest, ATeamTokenSeesItsSubtreesBudgetsOnly) {
  EXPECT_THAT(TeamsOf(Report("?at=2026-12-03T07:30:00Z", "team:vision")), ElementsAre("vision"));
  EXPECT_THAT(TeamsOf(Report("?at=2026-12-03T07:30:00Z", "team:ads")), ElementsAre("ads"));
  for (const char* team : {"research", "ads", "nobody"}) {
    auto http = Get(absl::StrCat("?team=", team, "&at=2026-12-03T07:30:00Z"), "team:vision");
    ASSERT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 403) << team << ": " << http->body;
    EXPECT_THAT(http->body, ::testing::Not(HasSubstr("amount")));
  }
}

TEST_F(BudgetsApiTest, TheGrpcMethodAnswersAsTheRoute) {
  auto stub =
      v1::InsightsService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + tokens_.at("admin"));
  v1::GetBudgetsRequest request;
  *request.mutable_at() = ToProtoTimestamp(At("2026-12-03T07:30:00Z"));
  v1::BudgetReport grpc_report;
  grpc::Status status = stub->GetBudgets(&context, request, &grpc_report);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(grpc_report.SerializeAsString(), Report("?at=2026-12-03T07:30:00Z").SerializeAsString());
}

TEST_F(BudgetsApiTest, HostileParametersAreRefusedNamingThem) {
  for (const auto& [query, named] :
       std::vector<std::pair<std::string, std::string>>{{"?at=yesterday", "at"},
                                                        {"?at=10000-01-01T00:00:00Z", "at"},
                                                        {"?at=0000-12-31T23:59:59Z", "at"},
                                                        {"?at=2026-12-03T07:30:00Z%00", "at"},
                                                        {"?team=vision%00", "team"},
                                                        {"?team=%FF", "team"},
                                                        {"?month=2026-12", "month"},
                                                        {"?limit=1000000000000", "limit"}}) {
    auto http = Get(query);
    ASSERT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 400) << query << ": " << http->body;
    EXPECT_THAT(http->body, HasSubstr(named)) << query;
  }
}

// fleetcapctl insights budgets: the table to the hundredth, CSV and JSON exact, as the API answers.
TEST_F(BudgetsApiTest, TheCommandLineShowsTheBudgets) {
  const v1::BudgetReport report = Report("?team=research&at=2026-12-03T07:30:00Z");
  ASSERT_EQ(report.budgets_size(), 2);
  auto run = [&](const char* format, const std::string& role = "admin") {
    return testing::Run({fleetcap::testing::kCtlBin, "insights", "budgets", "--team", "research", "--at",
                         "2026-12-03T07:30:00Z", "--format", format, "--server", api_->grpc_address(), "--token",
                         tokens_.at(role)});
  };
  auto table = run("table");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("Budgets (EUR)"));
  EXPECT_THAT(table.out, HasSubstr("projected_over"));
  EXPECT_THAT(table.out, HasSubstr("research: the mean daily cost of the 7 complete UTC days"));
  auto csv = run("csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  for (const v1::Budget& b : report.budgets()) {
    EXPECT_THAT(csv.out, HasSubstr(absl::StrCat(b.team(), ",2026-12,", exports::Money(b.amount_micro()), ",",
                                                exports::Money(b.spent_micro()), ",2026-12-03T05:00:00Z,",
                                                exports::Money(b.forecast_rest_micro()), ",",
                                                exports::Money(b.projected_micro()), ",", b.status(), ",")));
  }
  auto json = run("json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  v1::BudgetReport parsed;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json.out, &parsed).ok()) << json.out;
  EXPECT_EQ(parsed.SerializeAsString(), report.SerializeAsString());
  auto denied = run("table", "team:vision");
  EXPECT_NE(denied.exit_code, 0);
  EXPECT_THAT(denied.err, HasSubstr("PERMISSION_DENIED"));
}

}  // namespace
}  // namespace fleetcap

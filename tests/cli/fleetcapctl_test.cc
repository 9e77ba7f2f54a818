// fleetcapctl against a live fleetcap-api.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "services/exports/exact_decimal.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/csv_rows.h"
#include "tests/support/http_get.h"
#include "tests/support/served_chargeback.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

using fleetcap::testing::kApiBin;

using FleetctlTest = testing::ServedInventoryTest<kApiBin>;

size_t Lines(const std::string& text) {
  return std::vector<std::string>(absl::StrSplit(text, '\n', absl::SkipEmpty())).size();
}

TEST_F(FleetctlTest, TableForPeople) {
  auto result = testing::Run({fleetcap::testing::kCtlBin, "fleet", "summary", "--server", api_->grpc_address(),
                              "--token", api_->admin_token, "--cluster", "c1", "--at", "2026-01-01T01:30:00Z"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out,
            "cluster c1 at 2026-01-01T01:30:00Z\n"
            "MODEL  DEVICES   HELD   HELD%\n"
            "A100         1  1.000  100.0%\n"
            "T4           2  1.250   62.5%\n"
            "TOTAL        3  2.250   75.0%\n"
            "\n"
            "TEAM         HELD   SHARE\n"
            "unassigned  2.250  100.0%\n");  // no policy applied: nothing maps the pods to a team
}

TEST_F(FleetctlTest, JsonForProgramsWithServerFromTheEnvironment) {
  auto result = testing::Run(
      {fleetcap::testing::kCtlBin, "--format", "json", "fleet", "summary", "--at", "2026-01-01T00:00:00Z"},
      absl::Seconds(30), {"FLEETCAP_SERVER=" + api_->grpc_address(), "FLEETCAP_TOKEN=" + api_->admin_token});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["devices"], "2");
  EXPECT_EQ(json["heldMilli"], "1000");
  EXPECT_EQ(json["models"][0]["model"], "T4");
}

TEST_F(FleetctlTest, ServerErrorsAreOneLineAndNonZero) {
  auto unknown = testing::Run({fleetcap::testing::kCtlBin, "fleet", "summary", "--server", api_->grpc_address(),
                               "--token", api_->admin_token, "--cluster", "atlantis"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(Lines(unknown.err), 1u) << unknown.err;
  EXPECT_THAT(unknown.err, HasSubstr("NOT_FOUND")) << unknown.err;
  EXPECT_THAT(unknown.err, HasSubstr("atlantis")) << unknown.err;
}

TEST(FleetctlStandalone, UnreachableServerIsOneLineAndNonZero) {
  auto result =
      testing::Run({fleetcap::testing::kCtlBin, "fleet", "summary", "--server", "127.0.0.1:1", "--timeout", "5"});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(Lines(result.err), 1u) << result.err;
  EXPECT_THAT(result.err, HasSubstr("cannot reach fleetcap-api at 127.0.0.1:1")) << result.err;
  EXPECT_TRUE(result.out.empty());
}

TEST(FleetctlStandalone, BadInputIsOneLineNamingTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{{{"fleet", "summary", "--at", "soon"}, "--at"},
                                         {{"fleet", "summary", "--format", "yaml"}, "--format"},
                                         {{"fleet", "summry"}, "fleet summry"},
                                         {{"fleet", "summary", "--clustr", "x"}, "--clustr"}}) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    auto result = testing::Run(argv);
    EXPECT_EQ(result.exit_code, 2) << c.mentions;
    EXPECT_EQ(Lines(result.err), 1u) << result.err;
    EXPECT_THAT(result.err, HasSubstr(c.mentions)) << result.err;
  }
}

// The token is a secret: no command's --help prints it, from the
// environment or from the command line.
TEST(FleetctlStandalone, NoCommandsHelpPrintsTheToken) {
  const std::vector<std::vector<std::string>> commands = {
      {"fleet", "summary"},    {"policy", "get"},         {"token", "list"},   {"audit"},  {"usage"},
      {"chargeback"},          {"chargeback", "explain"}, {"recommendations"}, {"whatif"}, {"forecast"},
      {"insights", "budgets"}, {"insights", "waste"}};
  for (const auto& command : commands) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin};
    argv.insert(argv.end(), command.begin(), command.end());
    argv.push_back("--help");
    auto from_env = testing::Run(argv, absl::Seconds(60), {"FLEETCAP_TOKEN=s3cret-from-env"});
    EXPECT_EQ(from_env.exit_code, 0) << command[0] << ": " << from_env.err;
    EXPECT_THAT(from_env.out + from_env.err, Not(HasSubstr("s3cret"))) << command[0];
    EXPECT_THAT(from_env.out, HasSubstr("[set from FLEETCAP_TOKEN]")) << command[0] << ": " << from_env.out;
    argv.insert(argv.end() - 1, {"--token", "s3cret-flag"});
    auto from_flag = testing::Run(argv);
    EXPECT_THAT(from_flag.out + from_flag.err, Not(HasSubstr("s3cret"))) << command[0];
  }
}

TEST(FleetctlStandalone, HelpAndVersion) {
  auto help = testing::Run({fleetcap::testing::kCtlBin, "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("fleet summary"));
  auto version = testing::Run({fleetcap::testing::kCtlBin, "--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("fleetcapctl ", 0), 0u);
}

// fleetcapctl chargeback over a served bill (tests/support/served_chargeback.h).
class ChargebackCtlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeChargeback(kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
  }
  static void TearDownTestSuite() { served_.reset(); }

  // `fleetcapctl chargeback` over the whole bill, grouped by team and model per day, plus `extra`.
  static testing::RunResult Chargeback(const std::string& format, std::vector<std::string> extra = {},
                                       const std::string& role = "planner") {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin,
                                     "chargeback",
                                     "--server",
                                     served_->api.grpc_address(),
                                     "--token",
                                     served_->tokens.at(role),
                                     "--from",
                                     "2026-01-31T20:00:00Z",
                                     "--to",
                                     "2026-02-01T04:00:00Z",
                                     "--group-by",
                                     "team,model",
                                     "--resolution",
                                     "day",
                                     "--format",
                                     format};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::Run(argv);
  }
  // What GET /v1/chargeback answers for the same request.
  static nlohmann::json Api(const std::string& extra = "") {
    auto http = testing::HttpGet(served_->api.http_base() +
                                     "/v1/chargeback?start=2026-01-31T20:00:00Z&end=2026-02-01T04:00:00Z"
                                     "&group_by=team,model&resolution=day" +
                                     extra,
                                 served_->tokens.at("planner"));
    EXPECT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 200) << http->body;
    return nlohmann::json::parse(http->body);
  }

  static inline std::unique_ptr<testing::ServedChargeback> served_;
};

TEST_F(ChargebackCtlTest, JsonIsWhatTheApiReturns) {
  auto result = Chargeback("json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto api = Api();
  EXPECT_EQ(nlohmann::json::parse(result.out), api);
  EXPECT_GT(api["lines"].size(), 4u);
  EXPECT_EQ(api["currency"], "EUR");
}

TEST_F(ChargebackCtlTest, CsvRowsAreTheApisLinesWithExactAmounts) {
  auto result = Chargeback("csv");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto api = Api();
  const auto rows = testing::CsvRows(result.out);
  ASSERT_EQ(rows.size(), api["lines"].size());
  int64_t total = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& line = api["lines"][i];
    EXPECT_EQ(rows[i].at("start"), line["start"]);
    EXPECT_EQ(rows[i].at("team"), line["team"]);
    EXPECT_EQ(rows[i].at("model"), line["model"]);
    EXPECT_EQ(rows[i].at("currency"), "EUR");
    EXPECT_EQ(rows[i].at("no_telemetry"), line["noTelemetry"].get<bool>() ? "true" : "false");
    for (const auto& [column, field] :
         std::vector<std::pair<std::string, std::string>>{{"direct_cost", "directCostMicro"},
                                                          {"idle_cost", "idleCostMicro"},
                                                          {"shared_cost", "sharedCostMicro"},
                                                          {"total_cost", "totalCostMicro"}}) {
      EXPECT_EQ(std::to_string(testing::Millionths(rows[i].at(column))), line[field].get<std::string>()) << column;
    }
    total += testing::Millionths(rows[i].at("total_cost"));
  }
  EXPECT_EQ(std::to_string(total), api["totalCostMicro"].get<std::string>());
}

TEST_F(ChargebackCtlTest, TheApisExportIsTheSameBytesAsTheCli) {
  for (const std::string format : {"csv", "focus"}) {
    for (const std::string role : {"planner", "team:vision"}) {
      auto cli = Chargeback(format, {}, role);
      ASSERT_EQ(cli.exit_code, 0) << cli.err;
      auto http = testing::HttpGet(served_->api.http_base() + "/v1/chargeback/export?format=" + format +
                                       "&start=2026-01-31T20:00:00Z&end=2026-02-01T04:00:00Z"
                                       "&group_by=team,model&resolution=day",
                                   served_->tokens.at(role));
      ASSERT_THAT(http, IsOk());
      ASSERT_EQ(http->status, 200) << http->body;
      EXPECT_FALSE(cli.out.empty());
      EXPECT_EQ(http->body, cli.out) << format << " as " << role;
    }
  }
  auto bad = testing::HttpGet(served_->api.http_base() +
                                  "/v1/chargeback/export?format=xlsx"
                                  "&start=2026-01-31T20:00:00Z&end=2026-02-01T04:00:00Z",
                              served_->tokens.at("planner"));
  ASSERT_THAT(bad, IsOk());
  EXPECT_EQ(bad->status, 400);
  EXPECT_THAT(bad->body, HasSubstr("format"));
}

TEST_F(ChargebackCtlTest, FocusRowsBillTheApisTotal) {
  auto result = Chargeback("focus");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("BilledCost,BillingAccountId,", 0), 0u) << result.out;
  const auto api = Api();
  const auto rows = testing::CsvRows(result.out);
  ASSERT_EQ(rows.size(), api["lines"].size());
  int64_t billed = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].at("SubAccountId"), api["lines"][i]["team"]);
    EXPECT_EQ(rows[i].at("BillingCurrency"), "EUR");
    billed += testing::Millionths(rows[i].at("BilledCost"));
  }
  EXPECT_EQ(std::to_string(billed), api["totalCostMicro"].get<std::string>());
}

TEST_F(ChargebackCtlTest, TableHasARowPerLineInHundredthsATotalAndMarksLinesWithoutTelemetry) {
  auto result = Chargeback("table");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto api = Api();
  std::vector<std::string> rows = absl::StrSplit(result.out, '\n', absl::SkipEmpty());
  // Title, header, the lines, TOTAL, the note on lines without telemetry and
  // the note on rounding (the bill's amounts are not all whole cents).
  ASSERT_EQ(rows.size(), api["lines"].size() + 5) << result.out;
  EXPECT_EQ(rows[0], "chargeback from 2026-01-31T20:00:00Z to 2026-02-01T04:00:00Z in EUR");
  const std::string& total = rows[rows.size() - 3];
  EXPECT_EQ(total.rfind("TOTAL", 0), 0u) << result.out;
  EXPECT_TRUE(absl::EndsWith(total, " " + exports::Hundredths(std::stoll(api["totalCostMicro"].get<std::string>()))))
      << total;
  size_t marked = 0, expected_marked = 0, rounded = 0;
  for (size_t i = 0; i < api["lines"].size(); ++i) {
    const auto& line = api["lines"][i];
    const bool no_telemetry = line["noTelemetry"].get<bool>();
    marked += absl::EndsWith(rows[2 + i], "  *") ? 1 : 0;
    expected_marked += no_telemetry ? 1 : 0;
    // Money to the hundredth, the exact figure rounded.
    const int64_t micro = std::stoll(line["totalCostMicro"].get<std::string>());
    rounded += exports::FinerThanHundredths(micro) ? 1 : 0;
    EXPECT_TRUE(absl::EndsWith(rows[2 + i], " " + exports::Hundredths(micro) + (no_telemetry ? "  *" : "")))
        << rows[2 + i];
  }
  EXPECT_GT(expected_marked, 0u);
  EXPECT_GT(rounded, 0u);
  EXPECT_EQ(marked, expected_marked) << result.out;
  EXPECT_THAT(rows[rows.size() - 2], HasSubstr("no telemetry"));
  EXPECT_THAT(rows.back(), HasSubstr("rounded to the hundredth"));
}

TEST_F(ChargebackCtlTest, ARelativeWindowIsWholeHoursUpToThisHour) {
  const absl::Time before = absl::Now();
  auto result = testing::Run({fleetcap::testing::kCtlBin, "chargeback", "--server", served_->api.grpc_address(),
                              "--token", served_->tokens.at("planner"), "--last", "30d"});
  const absl::Time after = absl::Now();
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> words = absl::StrSplit(result.out.substr(0, result.out.find('\n')), ' ');
  ASSERT_EQ(words.size(), 7u) << result.out;  // chargeback from F to T in EUR
  auto from = ParseRfc3339("from", words[2]);
  auto to = ParseRfc3339("to", words[4]);
  ASSERT_THAT(from, IsOk());
  ASSERT_THAT(to, IsOk());
  EXPECT_EQ(absl::ToUnixSeconds(*to) % 3600, 0) << result.out;
  EXPECT_EQ(*to - *from, absl::Hours(30 * 24)) << result.out;
  EXPECT_GT(*to, before - absl::Hours(1));
  EXPECT_LE(*to, after);
}

TEST_F(ChargebackCtlTest, ATeamTokenAskingForAnotherTeamIsDeniedInOneLine) {
  auto own = Chargeback("json", {"--team", "vision-detect"}, "team:vision");
  ASSERT_EQ(own.exit_code, 0) << own.err;
  for (const auto& line : nlohmann::json::parse(own.out)["lines"]) EXPECT_EQ(line["team"], "vision-detect");
  auto other = Chargeback("json", {"--team", "ads"}, "team:vision");
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_EQ(Lines(other.err), 1u) << other.err;
  EXPECT_THAT(other.err, HasSubstr("PERMISSION_DENIED")) << other.err;
  EXPECT_TRUE(other.out.empty()) << other.out;
}

TEST(FleetctlStandalone, ChargebackFlagErrorsNameTheFlag) {
  const std::vector<std::string> window = {"--from", "2026-01-01T00:00:00Z", "--to", "2026-01-02T00:00:00Z"};
  struct Case {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{{{"--format", "xlsx"}, "--format"},
                                         {{"--resolution", "week"}, "--resolution"},
                                         {{"--group-by", "team,pod"}, "--group-by"},
                                         {{"--line-kind", "overhead"}, "--line-kind"},
                                         {{"--tema", "ads"}, "--tema"}}) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin, "chargeback"};
    argv.insert(argv.end(), window.begin(), window.end());
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    auto result = testing::Run(argv);
    EXPECT_EQ(result.exit_code, 2) << c.mentions;
    EXPECT_EQ(Lines(result.err), 1u) << result.err;
    EXPECT_THAT(result.err, HasSubstr(c.mentions)) << result.err;
  }
  auto no_window = testing::Run({fleetcap::testing::kCtlBin, "chargeback", "--format", "csv"});
  EXPECT_EQ(no_window.exit_code, 2);
  EXPECT_THAT(no_window.err, HasSubstr("--from")) << no_window.err;
}

TEST(FleetctlStandalone, ChargebackHelpDocumentsTheCommand) {
  auto help = testing::Run({fleetcap::testing::kCtlBin, "chargeback", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  for (const char* text : {"--from", "--to", "--last", "month-start", "--group-by", "--resolution", "--line-kind",
                           "table, json, csv or focus"}) {
    EXPECT_THAT(help.out, HasSubstr(text));
  }
  auto all = testing::Run({fleetcap::testing::kCtlBin, "--help"});
  EXPECT_THAT(all.out, HasSubstr("chargeback (--from T [--to T] | --last N)"));
}

}  // namespace
}  // namespace fleetcap

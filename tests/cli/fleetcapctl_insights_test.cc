// fleetcapctl insights changes against a live fleetcap-api serving the
// small bill of tests/support/served_chargeback.h.

#include <algorithm>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/served_chargeback.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"

// Its own namespace: the unity build puts it beside the other fleetcapctl tests.
namespace fleetcap::insights_ctl_test {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

class InsightsChangesCtlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeChargeback(testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
  }
  static void TearDownTestSuite() { served_.reset(); }

  // The bill's last four hours against its first four.
  static testing::RunResult Changes(const std::string& format, std::vector<std::string> extra = {},
                                    const std::string& role = "planner") {
    std::vector<std::string> argv = {testing::kCtlBin,
                                     "insights",
                                     "changes",
                                     "--server",
                                     served_->api.grpc_address(),
                                     "--token",
                                     served_->tokens.at(role),
                                     "--from",
                                     "2026-02-01T00:00:00Z",
                                     "--to",
                                     "2026-02-01T04:00:00Z",
                                     "--format",
                                     format};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::Run(argv);
  }

  static inline std::unique_ptr<testing::ServedChargeback> served_;
};

// The micro-units of an exact decimal with its sign ("-0.20", "4.666667").
int64_t Micro(const std::string& text) {
  const bool negative = !text.empty() && text[0] == '-';
  std::vector<std::string> parts = absl::StrSplit(negative ? text.substr(1) : text, '.');
  std::string fraction = parts.size() > 1 ? parts[1] : "";
  fraction.resize(6, '0');
  int64_t whole = 0, part = 0;
  EXPECT_TRUE(absl::SimpleAtoi(parts[0], &whole) && absl::SimpleAtoi(fraction, &part)) << text;
  return (negative ? -1 : 1) * (whole * 1'000'000 + part);
}

TEST_F(InsightsChangesCtlTest, JsonIsWhatTheApiReturns) {
  auto result = Changes("json", {"--top", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto http = testing::HttpGet(
      served_->api.http_base() + "/v1/insights/changes?start=2026-02-01T00:00:00Z&end=2026-02-01T04:00:00Z&top=2",
      served_->tokens.at("planner"));
  ASSERT_THAT(http, IsOk());
  ASSERT_EQ(http->status, 200) << http->body;
  EXPECT_EQ(nlohmann::json::parse(result.out), nlohmann::json::parse(http->body));
}

TEST_F(InsightsChangesCtlTest, CsvWalksExactlyFromThePreviousCostThroughTheDriversToTheCurrentOne) {
  auto result = Changes("csv");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::vector<std::string> records = absl::StrSplit(result.out, "\r\n", absl::SkipEmpty());
  ASSERT_GE(records.size(), 10u);
  EXPECT_EQ(records[0], "row,driver,team,namespace,workload,model,amount,currency");
  int64_t running = 0, current = -1, drivers = 0;
  for (size_t i = 1; i < records.size(); ++i) {
    std::vector<std::string> f = absl::StrSplit(records[i], ',');
    ASSERT_EQ(f.size(), 8u) << records[i];
    EXPECT_EQ(f[7], "EUR");
    if (f[0] == "previous") running = Micro(f[6]);
    if (f[0] == "driver") {
      running += Micro(f[6]);
      ++drivers;
    }
    if (f[0] == "current") current = Micro(f[6]);
  }
  EXPECT_EQ(drivers, 7);
  EXPECT_EQ(running, current);
}

TEST_F(InsightsChangesCtlTest, TableIsTheWaterfallInWordsAndATeamTokenIsKeptToItsSubtree) {
  auto table = Changes("table");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("previous window"));
  EXPECT_THAT(table.out, HasSubstr("+ price: prices per device-hour changed"));
  EXPECT_THAT(table.out, HasSubstr("= current window"));
  auto denied = Changes("table", {"--team", "ads"}, "team:vision");
  EXPECT_EQ(denied.exit_code, 1);
  EXPECT_EQ(std::count(denied.err.begin(), denied.err.end(), '\n'), 1) << denied.err;
  auto bad = Changes("table", {"--top", "101"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--top"));
}

}  // namespace
}  // namespace fleetcap::insights_ctl_test

// fleetcapctl assets and assets holds against a live fleetcap-api on
// PostgreSQL, over the bill of tests/support/served_chargeback.h and the
// inventory of tests/support/served_assets.h: JSON is what the API returns,
// CSV its rows with every figure exact, the table its rows to the hundredth
// with their total; a team token is refused in one line.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "tests/support/build_paths.h"
#include "tests/support/csv_rows.h"
#include "tests/support/served_assets.h"
#include "tests/support/served_chargeback.h"
#include "tests/support/status_matchers.h"
#include "tests/support/subprocess.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

constexpr char kAssetsFrom[] = "2026-01-31T20:00:00Z";
constexpr char kAssetsTo[] = "2026-02-01T04:00:00Z";

// Millionths of a device-hour from milli-device-seconds, rounded half up:
// a device-hour is 3,600,000 milli-device-seconds, so ms x 10 / 36.
int64_t DeviceHourMillionthsOf(int64_t milli_seconds) { return (milli_seconds * 10 + 18) / 36; }

class AssetsCtlTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeAssets(fleetcap::testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = std::move(*served);
  }
  static void TearDownTestSuite() { served_.reset(); }

  // `fleetcapctl <words>` over the served window as `role`, plus `extra`.
  static testing::RunResult Ctl(std::vector<std::string> words, std::vector<std::string> extra,
                                const std::string& role = "planner") {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin};
    argv.insert(argv.end(), words.begin(), words.end());
    for (const std::string& arg :
         {std::string("--server"), served_->api.grpc_address(), std::string("--token"), served_->tokens.at(role),
          std::string("--from"), std::string(kAssetsFrom), std::string("--to"), std::string(kAssetsTo)}) {
      argv.push_back(arg);
    }
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::Run(argv);
  }

  // What GET `path` answers for the served window and `query`.
  static nlohmann::json Api(const std::string& path, const std::string& query) {
    auto http = served_->Get(absl::StrCat(path, "?start=", kAssetsFrom, "&end=", kAssetsTo, query));
    EXPECT_THAT(http, IsOk());
    EXPECT_EQ(http->status, 200) << http->body;
    return nlohmann::json::parse(http->body);
  }

  static inline std::unique_ptr<testing::ServedChargeback> served_;
};

TEST_F(AssetsCtlTest, JsonIsWhatTheApiReturnsAtEveryLevel) {
  for (const std::string level : {"model", "cluster", "node", "device"}) {
    auto result = Ctl({"assets"}, {"--group-by", level, "--format", "json"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto api = Api("/v1/fleet/assets", "&limit=200&group_by=" + level);
    EXPECT_EQ(nlohmann::json::parse(result.out), api) << level;
    EXPECT_FALSE(api["rows"].empty()) << level;
  }
}

TEST_F(AssetsCtlTest, CsvRowsAreTheApisRowsWithEveryFigureExact) {
  auto result = Ctl({"assets"}, {"--group-by", "node", "--format", "csv", "--cluster", "c1"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto api = Api("/v1/fleet/assets", "&limit=200&group_by=node&cluster=c1");
  const auto rows = testing::CsvRows(result.out);
  ASSERT_EQ(rows.size(), api["rows"].size());
  ASSERT_GT(rows.size(), 1u);
  int used_known = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& row = api["rows"][i];
    // What the holds on n1's g0 used over the window's eight hours (served_assets.h).
    if (row["node"] == "n1" && row["model"] == "A100") {
      EXPECT_EQ(row["usedMilliSeconds"], "7228000");
    }
    EXPECT_EQ(rows[i].at("model"), row["model"]);
    EXPECT_EQ(rows[i].at("cluster"), row["cluster"]);
    EXPECT_EQ(rows[i].at("node"), row["node"]);
    EXPECT_EQ(rows[i].at("devices"), row["devices"]);
    EXPECT_EQ(rows[i].at("currency"), "EUR");
    for (const auto& [column, field] :
         std::vector<std::pair<std::string, std::string>>{{"capacity_device_hours", "capacityMilliSeconds"},
                                                          {"held_device_hours", "heldMilliSeconds"},
                                                          {"idle_device_hours", "idleMilliSeconds"}}) {
      EXPECT_EQ(testing::Millionths(rows[i].at(column)),
                DeviceHourMillionthsOf(std::stoll(row[field].get<std::string>())))
          << column;
    }
    // Used where the chargeback computed the node's model and cluster;
    // elsewhere unknown, an empty field, never 0.
    if (row.contains("usedMilliSeconds")) {
      EXPECT_EQ(testing::Millionths(rows[i].at("used_device_hours")),
                DeviceHourMillionthsOf(std::stoll(row["usedMilliSeconds"].get<std::string>())));
      ++used_known;
    } else {
      EXPECT_EQ(rows[i].at("used_device_hours"), "");
    }
    if (row.contains("idleCostMicro")) {
      EXPECT_EQ(std::to_string(testing::Millionths(rows[i].at("idle_cost"))), row["idleCostMicro"].get<std::string>());
    } else {
      EXPECT_EQ(rows[i].at("idle_cost"), "");
    }
  }
  EXPECT_GT(used_known, 0);
}

TEST_F(AssetsCtlTest, TableHasARowPerGroupToTheHundredthAndTheTotalOfEveryGroup) {
  auto result = Ctl({"assets"}, {"--group-by", "device", "--limit", "2"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto api = Api("/v1/fleet/assets", "&limit=2&group_by=device");
  std::vector<std::string> lines = absl::StrSplit(result.out, '\n', absl::SkipEmpty());
  ASSERT_GE(lines.size(), 5u) << result.out;
  EXPECT_EQ(lines[0], absl::StrCat("assets by device from ", kAssetsFrom, " to ", kAssetsTo, " in EUR"));
  EXPECT_THAT(lines[1], HasSubstr("CAPACITY_DEVICE_H"));
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_THAT(lines[2 + i], HasSubstr(api["rows"][i]["device"].get<std::string>())) << result.out;
  }
  EXPECT_EQ(lines[4].rfind("TOTAL", 0), 0u) << result.out;
  const int64_t idle = std::stoll(api["totals"]["idleMilliSeconds"].get<std::string>());
  const int64_t hundredths = (DeviceHourMillionthsOf(idle) + 5000) / 10000;
  EXPECT_THAT(lines[4], HasSubstr(absl::StrFormat("%d.%02d", hundredths / 100, hundredths % 100))) << result.out;
  EXPECT_THAT(result.out, HasSubstr(absl::StrCat("2 of ", api["groups"].get<std::string>(), " groups shown")));
  EXPECT_THAT(result.out, HasSubstr("rounded to the hundredth"));
}

TEST_F(AssetsCtlTest, TheApisExportIsTheSameBytesAsTheCli) {
  for (const std::string level : {"model", "node", "device"}) {
    auto cli = Ctl({"assets"}, {"--group-by", level, "--cluster", "c1", "--limit", "1000", "--format", "csv"});
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    auto http = served_->Get(absl::StrCat("/v1/fleet/assets/export?format=csv&start=", kAssetsFrom, "&end=", kAssetsTo,
                                          "&group_by=", level, "&cluster=c1&limit=1000"));
    ASSERT_THAT(http, IsOk());
    ASSERT_EQ(http->status, 200) << http->body;
    EXPECT_GT(testing::CsvRows(http->body).size(), 0u) << level;
    EXPECT_EQ(http->body, cli.out) << level;
  }
  for (const std::string& format : {std::string("&format=xlsx"), std::string("")}) {
    auto bad = served_->Get(absl::StrCat("/v1/fleet/assets/export?start=", kAssetsFrom, "&end=", kAssetsTo, format));
    ASSERT_THAT(bad, IsOk());
    EXPECT_EQ(bad->status, 400) << format;
    EXPECT_THAT(bad->body, HasSubstr("format")) << format;
  }
  auto denied = served_->Get(absl::StrCat("/v1/fleet/assets/export?format=csv&start=", kAssetsFrom, "&end=", kAssetsTo),
                             "team:vision");
  ASSERT_THAT(denied, IsOk());
  EXPECT_EQ(denied->status, 403) << denied->body;
}

TEST_F(AssetsCtlTest, ADevicesPodsAreTheApisHolds) {
  auto json = Ctl({"assets", "holds"}, {"--cluster", "c1", "--device", "g0", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto api = Api("/v1/fleet/assets/holds", "&cluster=c1&device=g0");
  EXPECT_EQ(nlohmann::json::parse(json.out), api);
  ASSERT_EQ(api["holds"].size(), 2u);
  auto csv = Ctl({"assets", "holds"}, {"--cluster", "c1", "--device", "g0", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const auto rows = testing::CsvRows(csv.out);
  ASSERT_EQ(rows.size(), 2u);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].at("pod"), api["holds"][i]["pod"]);
    EXPECT_EQ(rows[i].at("team"), api["holds"][i]["team"]);
    EXPECT_EQ(rows[i].at("held_seconds"), api["holds"][i]["heldSeconds"]);
  }
  auto table = Ctl({"assets", "holds"}, {"--cluster", "c1", "--device", "g0"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("train-0"));
  EXPECT_THAT(table.out, HasSubstr("rank-0"));
}

TEST_F(AssetsCtlTest, ATeamTokenIsRefusedInOneLine) {
  for (const auto& [words, extra] : std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>>{
           {{"assets"}, {"--cluster", "c1"}}, {{"assets", "holds"}, {"--cluster", "c1", "--device", "g0"}}}) {
    auto denied = Ctl(words, extra, "team:vision");
    EXPECT_EQ(denied.exit_code, 1);
    EXPECT_EQ(std::vector<std::string>(absl::StrSplit(denied.err, '\n', absl::SkipEmpty())).size(), 1u) << denied.err;
    EXPECT_THAT(denied.err, HasSubstr("PERMISSION_DENIED")) << denied.err;
    EXPECT_TRUE(denied.out.empty()) << denied.out;
  }
}

TEST_F(AssetsCtlTest, ARelativeWindowIsWholeHoursUpToThisHour) {
  auto result = testing::Run({fleetcap::testing::kCtlBin, "assets", "--server", served_->api.grpc_address(), "--token",
                              served_->tokens.at("planner"), "--last", "7d", "--format", "json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  auto from = ParseRfc3339("start", json["start"].get<std::string>());
  auto to = ParseRfc3339("end", json["end"].get<std::string>());
  ASSERT_THAT(from, IsOk());
  ASSERT_THAT(to, IsOk());
  EXPECT_EQ(absl::ToUnixSeconds(*to) % 3600, 0) << result.out;
  EXPECT_EQ(*to - *from, absl::Hours(7 * 24)) << result.out;
}

TEST(AssetsCtlStandalone, FlagErrorsNameTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{{{"assets", "--last", "7d", "--group-by", "rack"}, "--group-by"},
                                         {{"assets", "--last", "7d", "--limit", "0"}, "--limit"},
                                         {{"assets", "--last", "7d", "--limit", "1001"}, "--limit"},
                                         {{"assets", "--last", "7d", "--format", "focus"}, "--format"},
                                         {{"assets", "--from", "-7x"}, "--from"},
                                         {{"assets", "holds", "--last", "7d", "--device", "g0"}, "--cluster"},
                                         {{"assets", "holds", "--last", "7d", "--cluster", "c1"}, "--device"}}) {
    std::vector<std::string> argv = {fleetcap::testing::kCtlBin};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    auto result = testing::Run(argv);
    EXPECT_EQ(result.exit_code, 2) << c.mentions;
    EXPECT_THAT(result.err, HasSubstr(c.mentions)) << result.err;
  }
  auto all = testing::Run({fleetcap::testing::kCtlBin, "--help"});
  EXPECT_THAT(all.out, HasSubstr("assets holds --cluster C --device D"));
  EXPECT_THAT(all.out, HasSubstr("assets (--from T [--to T] | --last N)"));
}

}  // namespace
}  // namespace fleetcap

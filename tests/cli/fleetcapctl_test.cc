// fleetcapctl against a live fleetcap-api.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "tests/support/api_process.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

constexpr char kApiBin[] = FLEETCAP_API_BIN;

using FleetctlTest = testing::ServedInventoryTest<kApiBin>;

size_t Lines(const std::string& text) {
  return std::vector<std::string>(absl::StrSplit(text, '\n', absl::SkipEmpty())).size();
}

TEST_F(FleetctlTest, TableForPeople) {
  auto result = testing::Run({FLEETCAPCTL_BIN, "fleet", "summary", "--server", api_->grpc_address(), "--token",
                              api_->admin_token, "--cluster", "c1", "--at", "2026-01-01T01:30:00Z"});
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
  auto result = testing::Run({FLEETCAPCTL_BIN, "--format", "json", "fleet", "summary", "--at", "2026-01-01T00:00:00Z"},
                             absl::Seconds(30),
                             {"FLEETCAP_SERVER=" + api_->grpc_address(), "FLEETCAP_TOKEN=" + api_->admin_token});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["devices"], "2");
  EXPECT_EQ(json["heldMilli"], "1000");
  EXPECT_EQ(json["models"][0]["model"], "T4");
}

TEST_F(FleetctlTest, ServerErrorsAreOneLineAndNonZero) {
  auto unknown = testing::Run({FLEETCAPCTL_BIN, "fleet", "summary", "--server", api_->grpc_address(), "--token",
                               api_->admin_token, "--cluster", "atlantis"});
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_EQ(Lines(unknown.err), 1u) << unknown.err;
  EXPECT_THAT(unknown.err, HasSubstr("NOT_FOUND")) << unknown.err;
  EXPECT_THAT(unknown.err, HasSubstr("atlantis")) << unknown.err;
}

TEST(FleetctlStandalone, UnreachableServerIsOneLineAndNonZero) {
  auto result = testing::Run({FLEETCAPCTL_BIN, "fleet", "summary", "--server", "127.0.0.1:1", "--timeout", "5"});
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
    std::vector<std::string> argv = {FLEETCAPCTL_BIN};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    auto result = testing::Run(argv);
    EXPECT_EQ(result.exit_code, 2) << c.mentions;
    EXPECT_EQ(Lines(result.err), 1u) << result.err;
    EXPECT_THAT(result.err, HasSubstr(c.mentions)) << result.err;
  }
}

TEST(FleetctlStandalone, HelpAndVersion) {
  auto help = testing::Run({FLEETCAPCTL_BIN, "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("fleet summary"));
  auto version = testing::Run({FLEETCAPCTL_BIN, "--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_EQ(version.out.rfind("fleetcapctl ", 0), 0u);
}

}  // namespace
}  // namespace fleetcap

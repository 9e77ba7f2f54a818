// Deeply nested documents through the HTTP API of the real fleetcap-api
// (docs/security.md, "Nesting"). A scenario or policy nested 200 levels deep
// once overflowed a request handler's stack inside the YAML parser and took
// the whole process down; every such document, and a JSON body nested as
// deep, must now be a 400 that names the nesting, and the API must still
// answer afterwards.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

using fleetcap::testing::kApiBin;

// `[[[…]]]`, `depth` levels: a valid YAML (and JSON) value.
std::string Brackets(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string JsonString(const std::string& s) { return nlohmann::json(s).dump(); }

class NestingApiTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    ApiOnMigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    auto planner = testing::MintToken(db_->uri(), "planner");
    ASSERT_THAT(planner, IsOk());
    planner_ = *planner;
  }

  // POSTs `body` and expects a 400 whose message names the nesting and where it went too deep.
  void ExpectRefused(const std::string& path, const std::string& body, const std::string& token,
                     const std::string& where) {
    auto response = testing::HttpRequest("POST", api_->http_base() + path, body, token);
    ASSERT_THAT(response, IsOk()) << "the API did not answer " << path;
    EXPECT_EQ(response->status, 400) << response->body;
    EXPECT_THAT(response->body, HasSubstr("nested deeper than 64 levels")) << path;
    EXPECT_THAT(response->body, HasSubstr(where)) << path;
    ExpectStillAnswers();
  }

  void ExpectStillAnswers() {
    auto answer = testing::HttpRequest("GET", api_->http_base() + "/v1/scenarios", "", planner_);
    ASSERT_THAT(answer, IsOk()) << "the API stopped answering";
    EXPECT_EQ(answer->status, 200) << answer->body;
  }

  std::string planner_;
};

TEST_F(NestingApiTest, ARunOfADeepScenarioIsRefused) {
  ExpectRefused("/v1/scenarios/run", absl::StrCat("{\"scenarioYaml\":", JsonString(Brackets(200)), "}"), planner_,
                "scenario:1:65: document: nested deeper");
}

TEST_F(NestingApiTest, ASaveOfADeepScenarioIsRefused) {
  ExpectRefused("/v1/scenarios", absl::StrCat("{\"name\":\"deep\",\"scenarioYaml\":", JsonString(Brackets(200)), "}"),
                planner_, "scenario:1:65: document: nested deeper");
}

TEST_F(NestingApiTest, ADryRunOfADeepPolicyIsRefused) {
  ExpectRefused("/v1/policy", absl::StrCat("{\"document\":", JsonString(Brackets(200)), ",\"dryRun\":true}"),
                api_->admin_token, "document:1:65: document: nested deeper");
}

TEST_F(NestingApiTest, ADeepScenarioInBlockStyleIsRefused) {
  // The same depth written as indented block sequences, one level per line.
  std::string yaml;
  for (int level = 0; level < 200; ++level) absl::StrAppend(&yaml, std::string(level, ' '), "-\n");
  auto response = testing::HttpRequest("POST", api_->http_base() + "/v1/scenarios/run",
                                       absl::StrCat("{\"scenarioYaml\":", JsonString(yaml), "}"), planner_);
  ASSERT_THAT(response, IsOk()) << "the API did not answer";
  EXPECT_EQ(response->status, 400) << response->body;
  EXPECT_THAT(response->body, HasSubstr("nested deeper than 64 levels"));
  ExpectStillAnswers();
}

TEST_F(NestingApiTest, ADeepJsonBodyIsRefused) {
  // Nesting in the JSON request body itself, in a field the request does not have.
  ExpectRefused("/v1/scenarios/run", absl::StrCat("{\"scenarioYaml\":\"version: 1\",\"x\":", Brackets(10000), "}"),
                planner_, "request body: line 1: nested deeper");
  ExpectRefused("/v1/policy", absl::StrCat("{\"dryRun\":true,\"document\":", Brackets(10000), "}"), api_->admin_token,
                "request body: line 1: nested deeper");
}

}  // namespace
}  // namespace fleetcap

// Saved views through the HTTP API of the real fleetcap-api on PostgreSQL:
// each token saves, lists and removes its own, never another's, and a view
// that is not a page and a URL's query string is refused naming the field.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

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

class ViewsApiTest : public testing::ApiOnMigratedDatabaseTest<kApiBin> {
 protected:
  void SetUp() override {
    ApiOnMigratedDatabaseTest::SetUp();
    if (HasFatalFailure()) return;
    for (const char* role : {"planner", "planner", "scheduler"}) {
      auto token = testing::MintToken(db_->uri(), role);
      ASSERT_THAT(token, IsOk());
      tokens_.push_back(*token);
    }
  }

  testing::HttpResult Post(const std::string& path, const nlohmann::json& body, const std::string& token) {
    auto answer = testing::HttpRequest("POST", api_->http_base() + path, body.dump(), token);
    EXPECT_THAT(answer, IsOk());
    return answer.ok() ? *answer : testing::HttpResult{};
  }
  nlohmann::json List(const std::string& token) {
    auto answer = testing::HttpGet(api_->http_base() + "/v1/views", token);
    EXPECT_THAT(answer, IsOk());
    EXPECT_EQ(answer->status, 200) << answer->body;
    return nlohmann::json::parse(answer->body);
  }
  static nlohmann::json View(const std::string& name, const std::string& query) {
    return {{"name", name}, {"path", "/chargeback"}, {"query", query}};
  }

  std::vector<std::string> tokens_;  // two planners and a scheduler
};

TEST_F(ViewsApiTest, EachTokenKeepsItsOwnViews) {
  const std::string& a = tokens_[0];
  const std::string& b = tokens_[1];
  auto saved = Post("/v1/views", View("Idle by model", "range=month&stack=model&idle=kept"), a);
  ASSERT_EQ(saved.status, 200) << saved.body;
  const auto view = nlohmann::json::parse(saved.body);
  EXPECT_EQ(view["name"], "Idle by model");
  EXPECT_EQ(view["path"], "/chargeback");
  EXPECT_EQ(view["query"], "range=month&stack=model&idle=kept");
  EXPECT_TRUE(view.contains("savedAt")) << saved.body;
  ASSERT_EQ(Post("/v1/views", View("team costs", "range=30d"), tokens_[2]).status, 200);

  EXPECT_EQ(List(a)["views"].size(), 1u);
  EXPECT_EQ(List(a)["views"][0]["query"], "range=month&stack=model&idle=kept");
  EXPECT_TRUE(List(b)["views"].empty()) << List(b);
  EXPECT_EQ(List(tokens_[2])["views"][0]["name"], "team costs");

  // Saving the name again replaces the view; another token cannot remove it.
  ASSERT_EQ(Post("/v1/views", View("Idle by model", "range=90d&stack=model&idle=kept"), a).status, 200);
  EXPECT_EQ(List(a)["views"].size(), 1u);
  EXPECT_EQ(List(a)["views"][0]["query"], "range=90d&stack=model&idle=kept");
  auto other = Post("/v1/views/remove", {{"name", "Idle by model"}}, b);
  EXPECT_EQ(other.status, 404) << other.body;
  auto removed = Post("/v1/views/remove", {{"name", "Idle by model"}}, a);
  EXPECT_EQ(removed.status, 200) << removed.body;
  EXPECT_TRUE(List(a)["views"].empty());
  EXPECT_EQ(List(tokens_[2])["views"].size(), 1u);
}

TEST_F(ViewsApiTest, ABadViewIsRefusedNamingTheField) {
  const std::string& a = tokens_[0];
  struct Case {
    nlohmann::json body;
    const char* says;
  };
  for (const Case& c : std::vector<Case>{
           {View("", "range=7d"), "view name"},
           {View(std::string(101, 'n'), "range=7d"), "view name"},
           {View(std::string("a\0b", 3), "range=7d"), "name"},
           {View("x", "range=7d x"), "view query"},
           {View("x", std::string(1025, 'q')), "query: 1025 bytes"},
           {View("x", "a=\xc3\xa9"), "view query"},
           {{{"name", "x"}, {"path", "/../etc"}, {"query", ""}}, "view path"},
           {{{"name", "x"}, {"path", "https://elsewhere.example/"}, {"query", ""}}, "view path"},
           {{{"name", "x"}, {"path", "/chargeback"}, {"query", ""}, {"owner", "token:other"}}, "owner"},
       }) {
    auto answer = Post("/v1/views", c.body, a);
    EXPECT_EQ(answer.status, 400) << c.body.dump(-1, ' ', true) << " " << answer.body;
    EXPECT_THAT(answer.body, HasSubstr(c.says)) << c.body.dump(-1, ' ', true);
  }
  EXPECT_TRUE(List(a)["views"].empty()) << List(a);
}

TEST_F(ViewsApiTest, WithoutATokenNothingIsSavedOrListed) {
  EXPECT_EQ(Post("/v1/views", View("x", "range=7d"), "").status, 401);
  auto list = testing::HttpGet(api_->http_base() + "/v1/views");
  ASSERT_THAT(list, IsOk());
  EXPECT_EQ(list->status, 401);
}

}  // namespace
}  // namespace fleetcap

#include "services/api/http_gateway.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "prometheus/registry.h"
#include "services/api/control/token_operations.h"
#include "store/memory_control_repositories.h"

namespace fleetcap::api {
namespace {

using ::testing::HasSubstr;

class HttpGatewayTest : public ::testing::Test {
 protected:
  HttpGatewayTest() {
    admin_ = "Bearer " + CreateToken(&tokens_, clock_, "test", "admin", "", absl::Hours(1))->secret();
    planner_ = "Bearer " + CreateToken(&tokens_, clock_, "test", "planner", "", absl::Hours(1))->secret();
    gateway_.AddGetRoute("/v1/echo", [](const HttpQuery& q) {
      if (auto status = OnlyKnownParameters(q, {"name"}); !status.ok()) return ErrorResponse(status);
      const std::string* name = QueryValue(q, "name");
      return HttpResponse{200, name == nullptr ? "none" : *name};
    });
  }
  HttpResponse Handle(const std::string& method, const std::string& path, const std::string& query,
                      const std::string& authorization) {
    return gateway_.Handle(HttpRequest{method, path, query, authorization, ""});
  }
  HttpResponse Handle(const std::string& method, const std::string& path, const std::string& query) {
    return Handle(method, path, query, admin_);
  }

  SimulatedClock clock_{absl::FromUnixSeconds(1767225600)};
  store::MemoryAuditRepository audit_;
  store::MemoryTokenRepository tokens_{&audit_};
  store::MemoryPolicyRepository policies_{&audit_};
  Authenticator auth_{&tokens_, &policies_, &clock_};
  prometheus::Registry registry_;
  ApiMetrics metrics_{registry_};
  HttpGateway gateway_{&metrics_, &auth_, &clock_};
  std::string admin_, planner_;
};

TEST_F(HttpGatewayTest, DecodesTheQuery) {
  EXPECT_EQ(Handle("GET", "/v1/echo", "name=a%20b+c").body, "a b c");
  EXPECT_EQ(Handle("GET", "/v1/echo", "").body, "none");
}

TEST_F(HttpGatewayTest, ErrorsCarryCodeStatusAndMessage) {
  auto unknown = Handle("GET", "/v1/echo", "nmae=x");
  EXPECT_EQ(unknown.status, 400);
  auto json = nlohmann::json::parse(unknown.body);
  EXPECT_EQ(json["code"], 3);
  EXPECT_EQ(json["status"], "INVALID_ARGUMENT");
  EXPECT_THAT(json["message"].get<std::string>(), HasSubstr("nmae"));

  EXPECT_EQ(Handle("GET", "/v1/echo", "name=1&name=2").status, 400);
  EXPECT_EQ(Handle("GET", "/v1/echo", "name=%G1").status, 400);
  EXPECT_EQ(Handle("GET", "/v1/nope", "").status, 404);
  auto wrong_method = Handle("POST", "/v1/echo", "");
  EXPECT_EQ(wrong_method.status, 405);
  EXPECT_THAT(wrong_method.body, HasSubstr("only GET is served here")) << wrong_method.body;
}

TEST_F(HttpGatewayTest, AListParameterMayRepeatAndItsValuesAreJoinedInOrder) {
  gateway_.AddRoute("GET", "/v1/list",
                    [](const Scope&, const HttpQuery& q, const std::string&) {
                      const std::string* fields = QueryValue(q, "fields");
                      return HttpResponse{200, fields == nullptr ? "none" : *fields};
                    },
                    {"fields"});
  EXPECT_EQ(Handle("GET", "/v1/list", "fields=a,b&fields=c&fields=d").body, "a,b,c,d");
  EXPECT_EQ(Handle("GET", "/v1/list", "fields=a").body, "a");
  // Only the route's list parameters may repeat, and only on that route.
  EXPECT_EQ(Handle("GET", "/v1/list", "fields=a&other=1&other=2").status, 400);
  EXPECT_EQ(Handle("GET", "/v1/echo", "fields=a&fields=b").status, 400);
}

TEST_F(HttpGatewayTest, AuthenticatesBeforeAnyRouteAndAuthorisesByTheTable) {
  // No token: 401 even for paths that do not exist, so nothing is learnt.
  EXPECT_EQ(Handle("GET", "/v1/echo", "", "").status, 401);
  EXPECT_EQ(Handle("GET", "/v1/nope", "", "").status, 401);
  EXPECT_EQ(Handle("GET", "/v1/echo", "", "Bearer fct_wrong").status, 401);
  // /v1/echo is not in the access table: admin only.
  EXPECT_EQ(Handle("GET", "/v1/echo", "", planner_).status, 403);
  EXPECT_EQ(Handle("GET", "/v1/echo", "", admin_).status, 200);
}

TEST_F(HttpGatewayTest, PastItsShareATokenGets429WithRetryAfterAndOthersStillGetIn) {
  RequestAdmission admission({/*per_token=*/2, /*total=*/3, /*retry_after=*/absl::Seconds(2)});
  HttpGateway gateway(&metrics_, &auth_, &clock_, &admission);
  gateway.AddGetRoute("/v1/echo", [](const HttpQuery&) { return HttpResponse{200, "ok"}; });
  auto admit = [&](const std::string& authorization) {
    return gateway.Admit(HttpRequest{"GET", "/v1/echo", "", authorization, ""});
  };
  // Admissions held, as requests still running hold them.
  HttpGateway::Admission first = admit(admin_), second = admit(admin_);
  ASSERT_FALSE(first.refused || second.refused);
  HttpGateway::Admission third = admit(admin_);
  ASSERT_TRUE(third.refused);
  EXPECT_EQ(third.refused->status, 429);
  EXPECT_THAT(third.refused->headers, ::testing::Contains(std::pair<std::string, std::string>("Retry-After", "2")));
  EXPECT_THAT(third.refused->body, HasSubstr("RESOURCE_EXHAUSTED"));
  const std::string other = "Bearer " + CreateToken(&tokens_, clock_, "test", "admin", "", absl::Hours(1))->secret();
  HttpGateway::Admission another = admit(other);
  EXPECT_FALSE(another.refused);
  EXPECT_EQ(admit(other).refused->status, 429);  // the whole bound
  first = HttpGateway::Admission();
  EXPECT_FALSE(admit(admin_).refused);
  // Refusals before admission (no token) never take a place.
  EXPECT_EQ(gateway.Handle(HttpRequest{"GET", "/v1/echo", "", "", ""}).status, 401);
}

}  // namespace
}  // namespace fleetcap::api

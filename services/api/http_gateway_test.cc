#include "services/api/http_gateway.h"

#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "prometheus/registry.h"

namespace fleetcap::api {
namespace {

class HttpGatewayTest : public ::testing::Test {
 protected:
  HttpGatewayTest() {
    gateway_.AddGetRoute("/v1/echo", [](const HttpQuery& q) {
      if (auto status = OnlyKnownParameters(q, {"name"}); !status.ok()) return ErrorResponse(status);
      const std::string* name = QueryValue(q, "name");
      return HttpResponse{200, name == nullptr ? "none" : *name};
    });
  }
  prometheus::Registry registry_;
  ApiMetrics metrics_{registry_};
  HttpGateway gateway_{&metrics_};
};

TEST_F(HttpGatewayTest, DecodesTheQuery) {
  EXPECT_EQ(gateway_.Handle("GET", "/v1/echo", "name=a%20b+c").body, "a b c");
  EXPECT_EQ(gateway_.Handle("GET", "/v1/echo", "").body, "none");
}

TEST_F(HttpGatewayTest, ErrorsCarryCodeStatusAndMessage) {
  auto unknown = gateway_.Handle("GET", "/v1/echo", "nmae=x");
  EXPECT_EQ(unknown.status, 400);
  auto json = nlohmann::json::parse(unknown.body);
  EXPECT_EQ(json["code"], 3);
  EXPECT_EQ(json["status"], "INVALID_ARGUMENT");
  EXPECT_NE(json["message"].get<std::string>().find("nmae"), std::string::npos);

  EXPECT_EQ(gateway_.Handle("GET", "/v1/echo", "name=1&name=2").status, 400);
  EXPECT_EQ(gateway_.Handle("GET", "/v1/echo", "name=%G1").status, 400);
  EXPECT_EQ(gateway_.Handle("GET", "/v1/nope", "").status, 404);
  EXPECT_EQ(gateway_.Handle("POST", "/v1/echo", "").status, 405);
}

}  // namespace
}  // namespace fleetcap::api

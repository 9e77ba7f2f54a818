// Times and versions outside what the API can represent, on every endpoint
// that takes them, over gRPC and HTTP: always INVALID_ARGUMENT / 400 naming
// the field, never a 500 from PostgreSQL or from printing the response.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/audit.grpc.pb.h"
#include "fleetcap/v1/fleet.grpc.pb.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "fleetcap/v1/token.grpc.pb.h"
#include "fleetcap/v1/usage.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "nlohmann/json.hpp"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

constexpr int64_t kRangeT0 = 1767225600;               // 2026-01-01T00:00:00Z
constexpr int64_t kBeyondPostgres = int64_t{1} << 62;  // past PostgreSQL's year 294276
constexpr int64_t kTwoToThe40 = int64_t{1} << 40;

class OutOfRangeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto served = testing::ServeTestInventory(fleetcap::testing::kApiBin);
    ASSERT_THAT(served, IsOk());
    served_ = served->release();
  }
  static void TearDownTestSuite() { delete served_; }
  static const testing::ApiProcess& api() { return served_->api; }

  static std::shared_ptr<grpc::Channel> Channel() {
    return grpc::CreateChannel(api().grpc_address(), grpc::InsecureChannelCredentials());
  }
  static std::unique_ptr<grpc::ClientContext> Context() {
    auto context = std::make_unique<grpc::ClientContext>();
    context->AddMetadata("authorization", "Bearer " + api().admin_token);
    return context;
  }

  static testing::ServedTestInventory* served_;
};
testing::ServedTestInventory* OutOfRangeTest::served_ = nullptr;

struct GrpcCase {
  std::string name;
  std::function<grpc::Status()> call;
  std::string mentions;
};

TEST_F(OutOfRangeTest, GrpcIsInvalidArgumentNamingTheField) {
  auto usage = [](int64_t start, int64_t end, int32_t nanos) {
    return [=] {
      v1::GetUsageRequest request;
      request.set_cluster("c1");
      request.mutable_start()->set_seconds(start);
      request.mutable_start()->set_nanos(nanos);
      request.mutable_end()->set_seconds(end);
      v1::UsageReport report;
      return v1::UsageService::NewStub(Channel())->GetUsage(Context().get(), request, &report);
    };
  };
  auto fleet_at = [](int64_t seconds) {
    return [=] {
      v1::GetFleetSummaryRequest request;
      request.set_cluster("c1");
      request.mutable_at()->set_seconds(seconds);
      v1::FleetSummary summary;
      return v1::FleetService::NewStub(Channel())->GetFleetSummary(Context().get(), request, &summary);
    };
  };
  const std::vector<GrpcCase> cases = {
      {"fleet at 2^40 s", fleet_at(kTwoToThe40), "at.seconds"},
      {"fleet at before year 1", fleet_at(-kTwoToThe40), "at.seconds"},
      {"usage beyond PostgreSQL", usage(kBeyondPostgres, kBeyondPostgres + 3600, 0), "start.seconds"},
      {"usage starting before year 1", usage(-kTwoToThe40, kRangeT0, 0), "start.seconds"},
      {"usage ending after 9999", usage(kRangeT0, kTwoToThe40, 0), "end.seconds"},
      {"usage with negative nanos", usage(kRangeT0, kRangeT0 + 3600, -1), "start.nanos"},
      {"negative policy version",
       [] {
         v1::GetPolicyRequest request;
         request.set_version(-1);
         v1::PolicyVersion out;
         return v1::PolicyService::NewStub(Channel())->GetPolicy(Context().get(), request, &out);
       },
       "version"},
      {"negative rollback version",
       [] {
         v1::RollbackPolicyRequest request;
         request.set_version(-5);
         v1::ApplyPolicyResponse out;
         return v1::PolicyService::NewStub(Channel())->RollbackPolicy(Context().get(), request, &out);
       },
       "version"},
      {"negative base version",
       [] {
         v1::ApplyPolicyRequest request;
         request.set_document("version: 1\n");
         request.set_base_version(-1);
         v1::ApplyPolicyResponse out;
         return v1::PolicyService::NewStub(Channel())->ApplyPolicy(Context().get(), request, &out);
       },
       "base_version"},
      {"negative audit position",
       [] {
         v1::ListAuditEventsRequest request;
         request.set_after_id(-1);
         v1::ListAuditEventsResponse out;
         return v1::AuditService::NewStub(Channel())->ListAuditEvents(Context().get(), request, &out);
       },
       "after_id"},
      {"token lifetime of 2^62 s",
       [] {
         v1::CreateTokenRequest request;
         request.set_role("planner");
         request.set_ttl_seconds(kBeyondPostgres);
         v1::CreateTokenResponse out;
         return v1::TokenService::NewStub(Channel())->CreateToken(Context().get(), request, &out);
       },
       "ttl_seconds"},
  };
  for (const GrpcCase& c : cases) {
    SCOPED_TRACE(c.name);
    const grpc::Status status = c.call();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
    EXPECT_THAT(status.error_message(), HasSubstr(c.mentions)) << status.error_message();
  }
}

struct HttpCase {
  std::string method;
  std::string path;
  std::string body;
  std::string mentions;
};

TEST_F(OutOfRangeTest, HttpIs400NamingTheField) {
  const std::vector<HttpCase> cases = {
      {"GET", "/v1/fleet/summary?cluster=c1&at=99999-01-01T00:00:00Z", "", "at"},
      {"GET", "/v1/fleet/summary?cluster=c1&at=0000-12-31T00:00:00Z", "", "at"},
      {"GET", "/v1/usage?cluster=c1&start=99999-01-01T00:00:00Z&end=99999-01-02T00:00:00Z", "", "start"},
      {"GET", "/v1/usage?cluster=c1&start=2026-01-01T00:00:00Z&end=99999-01-01T00:00:00Z&resolution=day", "", "end"},
      {"GET", "/v1/usage?cluster=c1&start=0000-01-01T00:00:00Z&end=2026-01-01T00:00:00Z&resolution=day", "", "start"},
      {"GET", "/v1/policy?version=1099511627776", "", "version"},
      {"GET", "/v1/policy?version=4294967297", "", "version"},
      {"GET", "/v1/policy?version=-1", "", "version"},
      {"GET", "/v1/audit?after_id=-1", "", "after_id"},
      {"POST", "/v1/policy/rollback", R"({"version": 1099511627776})", "version"},
      {"POST", "/v1/policy/rollback", R"({"version": -1})", "version"},
      {"POST", "/v1/policy", R"({"document": "version: 1\n", "baseVersion": -1})", "base_version"},
      {"POST", "/v1/tokens", R"({"role": "planner", "ttlSeconds": "4611686018427387904"})", "ttl_seconds"},
  };
  for (const HttpCase& c : cases) {
    SCOPED_TRACE(c.method + " " + c.path + " " + c.body);
    auto response = testing::HttpRequest(c.method, api().http_base() + c.path, c.body, api().admin_token);
    ASSERT_THAT(response, IsOk());
    EXPECT_EQ(response->status, 400) << response->body;
    auto json = nlohmann::json::parse(response->body, nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << response->body;
    EXPECT_EQ(json["status"], "INVALID_ARGUMENT") << response->body;
    EXPECT_THAT(json["message"].get<std::string>(), HasSubstr(c.mentions)) << response->body;
  }
}

}  // namespace
}  // namespace fleetcap

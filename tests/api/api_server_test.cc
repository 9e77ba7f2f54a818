// fleetcap-api as a real process: gRPC, the HTTP/JSON gateway, health
// checking, reflection and /metrics, on the shared test inventory.

#include <signal.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/fleet.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "grpc/reflection/v1alpha/reflection.grpc.pb.h"
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

using fleetcap::testing::kApiBin;

class ApiServerTest : public testing::ServedInventoryTest<kApiBin> {
 protected:
  std::unique_ptr<v1::FleetService::Stub> FleetStub() {
    return v1::FleetService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  }

  // A client context carrying the admin token.
  static void Authorize(grpc::ClientContext& context) {
    context.AddMetadata("authorization", "Bearer " + api_->admin_token);
  }
};

constexpr int64_t kT0 = 1767225600;  // 2026-01-01T00:00:00Z, store::TestT0()

TEST_F(ApiServerTest, GrpcSummaryPerModelAndTotals) {
  grpc::ClientContext context;
  Authorize(context);
  v1::GetFleetSummaryRequest request;
  request.set_cluster("c1");
  request.mutable_at()->set_seconds(kT0 + 90 * 60);
  v1::FleetSummary summary;
  grpc::Status status = FleetStub()->GetFleetSummary(&context, request, &summary);
  ASSERT_THAT(status, IsOk()) << status.error_message();
  ASSERT_EQ(summary.models_size(), 2);
  EXPECT_EQ(summary.models(0).model(), "A100");
  EXPECT_EQ(summary.models(0).devices(), 1);
  EXPECT_EQ(summary.models(0).held_milli(), 1000);
  EXPECT_EQ(summary.models(1).model(), "T4");
  EXPECT_EQ(summary.models(1).devices(), 2);
  EXPECT_EQ(summary.models(1).held_milli(), 1250);
  EXPECT_EQ(summary.devices(), 3);
  EXPECT_EQ(summary.held_milli(), 2250);
  EXPECT_EQ(summary.at().seconds(), kT0 + 90 * 60);
}

TEST_F(ApiServerTest, GrpcErrors) {
  {
    grpc::ClientContext context;
    Authorize(context);
    v1::GetFleetSummaryRequest request;
    request.mutable_at()->set_seconds(kT0);
    request.mutable_at()->set_nanos(1000000000);
    v1::FleetSummary summary;
    grpc::Status status = FleetStub()->GetFleetSummary(&context, request, &summary);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr("at.nanos")) << status.error_message();
  }
  {
    grpc::ClientContext context;
    Authorize(context);
    v1::GetFleetSummaryRequest request;
    request.set_cluster("no-such-cluster");
    v1::FleetSummary summary;
    grpc::Status status = FleetStub()->GetFleetSummary(&context, request, &summary);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
    EXPECT_THAT(status.error_message(), HasSubstr("no-such-cluster"));
  }
}

TEST_F(ApiServerTest, HttpJsonIsTheCanonicalMappingOfTheSameMessage) {
  auto response =
      testing::HttpGet(api_->http_base() + "/v1/fleet/summary?cluster=c1&at=2026-01-01T01:30:00Z", api_->admin_token);
  ASSERT_THAT(response, IsOk());
  ASSERT_EQ(response->status, 200) << response->body;
  auto json = nlohmann::json::parse(response->body);
  EXPECT_EQ(json["cluster"], "c1");
  EXPECT_EQ(json["at"], "2026-01-01T01:30:00Z");
  ASSERT_EQ(json["models"].size(), 2u);
  EXPECT_EQ(json["models"][1]["model"], "T4");
  // int64 fields are JSON strings in the canonical proto3 mapping.
  EXPECT_EQ(json["models"][1]["devices"], "2");
  EXPECT_EQ(json["models"][1]["heldMilli"], "1250");
  EXPECT_EQ(json["devices"], "3");
  EXPECT_EQ(json["heldMilli"], "2250");

  auto all = testing::HttpGet(api_->http_base() + "/v1/fleet/summary?at=2026-01-01T00%3A00%3A00Z", api_->admin_token);
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->status, 200) << all->body;
  EXPECT_EQ(nlohmann::json::parse(all->body)["heldMilli"], "1000");
}

TEST_F(ApiServerTest, HttpErrorsNameTheInput) {
  struct Case {
    std::string path;
    long status;
    std::string code;
    std::string mentions;
  };
  for (const Case& c : std::vector<Case>{{"/v1/fleet/summary?at=yesterday", 400, "INVALID_ARGUMENT", "at"},
                                         {"/v1/fleet/summary?cluster=nowhere", 404, "NOT_FOUND", "nowhere"},
                                         {"/v1/fleet/summary?clutser=c1", 400, "INVALID_ARGUMENT", "clutser"},
                                         {"/v1/fleet/summary?at=%zz", 400, "INVALID_ARGUMENT", "percent-escape"},
                                         {"/v1/no/such/route", 404, "NOT_FOUND", "/v1/no/such/route"}}) {
    auto response = testing::HttpGet(api_->http_base() + c.path, api_->admin_token);
    ASSERT_THAT(response, IsOk());
    EXPECT_EQ(response->status, c.status) << c.path << ": " << response->body;
    auto json = nlohmann::json::parse(response->body);
    EXPECT_EQ(json["status"], c.code) << c.path;
    EXPECT_THAT(json["message"].get<std::string>(), HasSubstr(c.mentions)) << c.path << ": " << json;
  }
}

TEST_F(ApiServerTest, HealthCheckingSaysServing) {
  auto stub =
      grpc::health::v1::Health::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  grpc::health::v1::HealthCheckRequest request;
  grpc::health::v1::HealthCheckResponse response;
  ASSERT_THAT(stub->Check(&context, request, &response), IsOk());
  EXPECT_EQ(response.status(), grpc::health::v1::HealthCheckResponse::SERVING);
}

// The services gRPC reflection lists at `address`, and how the stream ended.
grpc::Status ListServicesByReflection(const std::string& address, std::vector<std::string>* names) {
  auto stub = grpc::reflection::v1alpha::ServerReflection::NewStub(
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
  grpc::ClientContext context;
  auto stream = stub->ServerReflectionInfo(&context);
  grpc::reflection::v1alpha::ServerReflectionRequest request;
  request.set_list_services("");
  stream->Write(request);
  stream->WritesDone();
  grpc::reflection::v1alpha::ServerReflectionResponse response;
  while (stream->Read(&response)) {
    for (const auto& s : response.list_services_response().service()) names->push_back(s.name());
  }
  return stream->Finish();
}

// Reflection would tell anyone, without a token, every method there is
// (docs/security.md: without a token nothing is learnt): off unless asked for.
TEST_F(ApiServerTest, ReflectionIsOffByDefault) {
  std::vector<std::string> names;
  EXPECT_EQ(ListServicesByReflection(api_->grpc_address(), &names).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_THAT(names, ::testing::IsEmpty());
}

class ReflectionFlagTest : public testing::MigratedDatabaseTest {};

TEST_F(ReflectionFlagTest, WithTheFlagReflectionListsTheServices) {
  auto api = testing::StartApi(kApiBin, db_->uri(), {"--grpc-reflection"});
  ASSERT_THAT(api, IsOk());
  std::vector<std::string> names;
  ASSERT_THAT(ListServicesByReflection(api->grpc_address(), &names), IsOk());
  for (const char* service :
       {"fleetcap.v1.FleetService", "fleetcap.v1.PolicyService", "fleetcap.v1.TokenService", "fleetcap.v1.AuditService",
        "fleetcap.v1.UsageService", "fleetcap.v1.ChargebackService"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), service), names.end()) << service;
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "grpc.health.v1.Health"), names.end());
}

TEST_F(ApiServerTest, MetricsCountRequests) {
  ASSERT_THAT(testing::HttpGet(api_->http_base() + "/v1/fleet/summary?cluster=c1", api_->admin_token), IsOk());
  auto metrics = testing::HttpGet("http://127.0.0.1:" + std::to_string(api_->metrics_port) + "/metrics");
  ASSERT_THAT(metrics, IsOk());
  ASSERT_EQ(metrics->status, 200);
  EXPECT_THAT(metrics->body, HasSubstr("fleetcap_api_requests_total{")) << metrics->body;
  EXPECT_THAT(metrics->body, HasSubstr("method=\"/v1/fleet/summary\""));
  EXPECT_THAT(metrics->body, HasSubstr("fleetcap_api_request_duration_seconds_bucket"));
}

}  // namespace
}  // namespace fleetcap

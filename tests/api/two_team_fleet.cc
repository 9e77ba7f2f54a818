#include "tests/api/two_team_fleet.h"

#include "fleetcap/v1/audit.grpc.pb.h"
#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "fleetcap/v1/fleet.grpc.pb.h"
#include "fleetcap/v1/insights.grpc.pb.h"
#include "fleetcap/v1/planning.grpc.pb.h"
#include "fleetcap/v1/token.grpc.pb.h"
#include "fleetcap/v1/views.grpc.pb.h"
#include "google/protobuf/descriptor.h"

namespace fleetcap {

testing::TestDatabase* TwoTeamFleetTest::db_ = nullptr;
testing::ApiProcess* TwoTeamFleetTest::api_ = nullptr;
std::map<std::string, std::string> TwoTeamFleetTest::tokens_;

v1::GetUsageRequest VisionUsageRequest(const std::string& ns) {
  v1::GetUsageRequest r;
  r.set_cluster("c1");
  r.set_namespace_(ns);
  r.mutable_start()->set_seconds(1767225600);
  r.mutable_end()->set_seconds(1767225600 + 3600);
  return r;
}

std::string GrpcRequest(const std::string& method) {
  if (method == "/fleetcap.v1.PolicyService/GetTeam") {
    v1::GetTeamRequest r;
    r.set_team("vision-detect");
    return r.SerializeAsString();
  }
  if (method == "/fleetcap.v1.UsageService/GetUsage") return VisionUsageRequest("vision-ns").SerializeAsString();
  if (method == "/fleetcap.v1.ChargebackService/GetChargeback") {
    v1::GetChargebackRequest r;
    r.mutable_start()->set_seconds(1767225600);
    r.mutable_end()->set_seconds(1767225600 + 3600);
    r.set_team("vision-detect");
    return r.SerializeAsString();
  }
  if (method == "/fleetcap.v1.ChargebackService/ExplainChargeback") {
    v1::ExplainChargebackRequest r;
    r.set_team("vision-detect");
    r.mutable_hour()->set_seconds(1767225600);
    return r.SerializeAsString();
  }
  if (method == "/fleetcap.v1.FleetService/GetCapacitySeries") {
    v1::GetCapacitySeriesRequest r;
    r.mutable_start()->set_seconds(1767225600);
    r.mutable_end()->set_seconds(1767225600 + 3600);
    r.add_group_by("team");
    return r.SerializeAsString();
  }
  if (method == "/fleetcap.v1.AllocationService/GetRecommendations") {
    v1::GetRecommendationsRequest r;
    r.set_team("vision-detect");
    return r.SerializeAsString();
  }
  if (method == "/fleetcap.v1.AllocationService/WatchRecommendations") {
    v1::WatchRecommendationsRequest r;
    r.set_team("vision-detect");
    return r.SerializeAsString();
  }
  if (method == "/fleetcap.v1.PlanningService/GetForecast") {
    v1::GetForecastRequest r;
    r.set_flavor("a100");
    r.set_team("vision-detect");
    return r.SerializeAsString();
  }
  if (method == "/fleetcap.v1.InsightsService/GetWaste") {
    v1::GetWasteRequest r;
    r.mutable_start()->set_seconds(1767225600);
    r.mutable_end()->set_seconds(1767225600 + 3600);
    r.set_team("vision-detect");
    return r.SerializeAsString();
  }
  return "";  // every field at its default
}

std::string HttpTarget(const std::string& key) {
  if (key == "GET /v1/policy/team") return "/v1/policy/team?team=vision-detect";
  if (key == "GET /v1/chargeback") {
    return "/v1/chargeback?start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z&group_by=team&team=vision-detect";
  }
  if (key == "GET /v1/chargeback/explain") return "/v1/chargeback/explain?team=vision-detect&hour=2026-01-01T00:00:00Z";
  if (key == "GET /v1/recommendations") return "/v1/recommendations?team=vision-detect";
  if (key == "GET /v1/recommendations/manifests") return "/v1/recommendations/manifests?format=volcano";
  if (key == "GET /v1/fleet/capacity") {
    return "/v1/fleet/capacity?start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z&group_by=team";
  }
  if (key == "GET /v1/forecast") return "/v1/forecast?flavor=a100&team=vision-detect";
  if (key == "GET /v1/chargeback/export") {
    return "/v1/chargeback/export?format=csv&start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z&team=vision-detect";
  }
  if (key == "GET /v1/insights/waste") {
    return "/v1/insights/waste?start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z&team=vision-detect";
  }
  if (key == "GET /v1/insights/changes") {
    return "/v1/insights/changes?start=2026-01-01T01:00:00Z&end=2026-01-01T02:00:00Z&team=vision-detect";
  }
  if (key == "GET /v1/usage") {
    return "/v1/usage?cluster=c1&namespace=vision-ns&start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z";
  }
  return key.substr(key.find(' ') + 1);
}

std::vector<std::string> AllFleetcapMethods() {
  std::vector<std::string> methods;
  // Each .proto file through one of its messages (which also links it in).
  for (const google::protobuf::FileDescriptor* file :
       {v1::GetFleetSummaryRequest::descriptor()->file(), v1::GetPolicyRequest::descriptor()->file(),
        v1::CreateTokenRequest::descriptor()->file(), v1::ListAuditEventsRequest::descriptor()->file(),
        v1::GetUsageRequest::descriptor()->file(), v1::GetChargebackRequest::descriptor()->file(),
        v1::GetRecommendationsRequest::descriptor()->file(), v1::RunScenarioRequest::descriptor()->file(),
        v1::SaveViewRequest::descriptor()->file(), v1::GetWasteRequest::descriptor()->file()}) {
    EXPECT_EQ(file->service_count(), 1) << file->name();
    if (file->service_count() == 0) continue;
    const auto* service = file->service(0);
    for (int i = 0; i < service->method_count(); ++i) {
      methods.push_back("/" + service->full_name() + "/" + service->method(i)->name());
    }
  }
  return methods;
}

}  // namespace fleetcap

// Every RPC and every HTTP route, called with every role, against the real
// fleetcap-api: allowed or denied exactly as the roles promise. A service
// method or route without a row here fails the test, so new APIs must add
// their rows.

#include <map>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fleetcap/v1/allocation.grpc.pb.h"
#include "fleetcap/v1/audit.grpc.pb.h"
#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "fleetcap/v1/fleet.grpc.pb.h"
#include "fleetcap/v1/planning.grpc.pb.h"
#include "fleetcap/v1/policy.grpc.pb.h"
#include "fleetcap/v1/token.grpc.pb.h"
#include "fleetcap/v1/usage.grpc.pb.h"
#include "google/protobuf/descriptor.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "pqxx/pqxx"
#include "services/api/access_table.h"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_forecast_repository.h"
#include "tests/api/two_team_fleet.h"
#include "tests/support/api_process.h"
#include "tests/support/build_paths.h"
#include "tests/support/http_get.h"
#include "tests/support/status_matchers.h"
#include "tests/support/test_database.h"
#include "tests/support/tokens.h"

namespace fleetcap {
namespace {

using ::fleetcap::testing::IsOk;
using ::testing::HasSubstr;

// Who may call it: admin, planner, scheduler, team:vision.
struct Expect {
  bool admin, planner, scheduler, team;
};

// The promise, written out independently of the server's access table.
const std::map<std::string, Expect>& Expected() {
  static const auto* table = new std::map<std::string, Expect>{
      {"/fleetcap.v1.FleetService/GetFleetSummary", {true, true, false, false}},
      // The fleet's assets are the planners': a team token is refused.
      {"/fleetcap.v1.FleetService/GetAssets", {true, true, false, false}},
      {"/fleetcap.v1.FleetService/ListDeviceHolds", {true, true, false, false}},
      {"GET /v1/fleet/assets", {true, true, false, false}},
      {"GET /v1/fleet/assets/holds", {true, true, false, false}},
      {"GET /v1/fleet/assets/export", {true, true, false, false}},
      {"/fleetcap.v1.PolicyService/GetPolicy", {true, true, false, false}},
      {"/fleetcap.v1.PolicyService/ListPolicyVersions", {true, true, false, false}},
      {"/fleetcap.v1.PolicyService/ApplyPolicy", {true, false, false, false}},
      {"/fleetcap.v1.PolicyService/RollbackPolicy", {true, false, false, false}},
      {"/fleetcap.v1.PolicyService/GetTeam", {true, true, false, true}},
      {"/fleetcap.v1.TokenService/CreateToken", {true, false, false, false}},
      {"/fleetcap.v1.TokenService/ListTokens", {true, false, false, false}},
      {"/fleetcap.v1.TokenService/RevokeToken", {true, false, false, false}},
      {"/fleetcap.v1.TokenService/WhoAmI", {true, true, true, true}},
      {"/fleetcap.v1.AuditService/ListAuditEvents", {true, false, false, false}},
      {"/fleetcap.v1.UsageService/GetUsage", {true, true, false, true}},
      {"GET /v1/usage", {true, true, false, true}},
      {"/fleetcap.v1.ChargebackService/GetChargeback", {true, true, false, true}},
      {"GET /v1/chargeback", {true, true, false, true}},
      {"GET /v1/fleet/summary", {true, true, false, false}},
      {"GET /v1/policy", {true, true, false, false}},
      {"GET /v1/policy/history", {true, true, false, false}},
      {"POST /v1/policy", {true, false, false, false}},
      {"POST /v1/policy/rollback", {true, false, false, false}},
      {"GET /v1/policy/team", {true, true, false, true}},
      {"GET /v1/tokens", {true, false, false, false}},
      {"POST /v1/tokens", {true, false, false, false}},
      {"POST /v1/tokens/revoke", {true, false, false, false}},
      {"GET /v1/tokens/self", {true, true, true, true}},
      {"GET /v1/audit", {true, false, false, false}},
      {"/fleetcap.v1.ChargebackService/ExplainChargeback", {true, true, false, true}},
      {"GET /v1/chargeback/explain", {true, true, false, true}},
      // Teams read their own subtree (RecommendationsAreScopedToATeamsSubtree).
      {"/fleetcap.v1.AllocationService/GetRecommendations", {true, true, true, true}},
      {"/fleetcap.v1.AllocationService/WatchRecommendations", {true, true, true, true}},
      {"GET /v1/recommendations", {true, true, true, true}},
      {"GET /v1/recommendations/manifests", {true, true, true, true}},
      // Teams read held and used of their own subtree, and its waiting pods
      // (ATeamsFleetViewIsItsOwnSubtree); schedulers get no fleet data.
      {"/fleetcap.v1.FleetService/GetCapacitySeries", {true, true, false, true}},
      {"/fleetcap.v1.FleetService/ListPendingDemand", {true, true, false, true}},
      {"GET /v1/fleet/capacity", {true, true, false, true}},
      {"GET /v1/fleet/pending", {true, true, false, true}},
      {"GET /v1/chargeback/export", {true, true, false, true}},
      // Teams read their own subtree's forecasts, never a flavor's total
      // (ForecastsAreScopedToATeamsSubtree); schedulers get none.
      {"/fleetcap.v1.PlanningService/GetForecast", {true, true, false, true}},
      {"GET /v1/forecast", {true, true, false, true}},
      // What-if scenarios: planners and admins only (a scenario compares the whole fleet).
      {"/fleetcap.v1.PlanningService/RunScenario", {true, true, false, false}},
      {"/fleetcap.v1.PlanningService/SaveScenario", {true, true, false, false}},
      {"/fleetcap.v1.PlanningService/ListScenarios", {true, true, false, false}},
      {"/fleetcap.v1.PlanningService/GetScenario", {true, true, false, false}},
      {"POST /v1/scenarios/run", {true, true, false, false}},
      {"POST /v1/scenarios", {true, true, false, false}},
      {"GET /v1/scenarios", {true, true, false, false}},
      {"GET /v1/scenarios/get", {true, true, false, false}},
      // Every token keeps its own saved views.
      {"/fleetcap.v1.ViewService/SaveView", {true, true, true, true}},
      {"/fleetcap.v1.ViewService/ListViews", {true, true, true, true}},
      {"/fleetcap.v1.ViewService/RemoveView", {true, true, true, true}},
      {"POST /v1/views", {true, true, true, true}},
      {"GET /v1/views", {true, true, true, true}},
      {"POST /v1/views/remove", {true, true, true, true}},
      // Insights: a team reads its own subtree's; schedulers get none.
      {"/fleetcap.v1.InsightsService/GetWaste", {true, true, false, true}},
      {"/fleetcap.v1.InsightsService/GetRightsizing", {true, true, false, true}},
      {"/fleetcap.v1.InsightsService/GetSpendChange", {true, true, false, true}},
      {"/fleetcap.v1.InsightsService/GetBudgets", {true, true, false, true}},
      {"GET /v1/insights/waste", {true, true, false, true}},
      {"GET /v1/insights/rightsizing", {true, true, false, true}},
      {"GET /v1/insights/changes", {true, true, false, true}},
      {"GET /v1/insights/budgets", {true, true, false, true}},
  };
  return *table;
}

class AuthorizationTest : public TwoTeamFleetTest {};

TEST_F(AuthorizationTest, EveryMethodAndRouteHasAnExpectation) {
  for (const auto& method : AllFleetcapMethods()) EXPECT_EQ(Expected().count(method), 1u) << method;
  for (const auto& [key, access] : api::AccessTable()) EXPECT_EQ(Expected().count(key), 1u) << key;
  for (const auto& [key, expect] : Expected()) EXPECT_EQ(api::AccessTable().count(key), 1u) << key;
}

TEST_F(AuthorizationTest, EveryRpcWithEveryRole) {
  for (const auto& method : AllFleetcapMethods()) {
    const Expect& e = Expected().at(method);
    for (const auto& [role, allowed] : std::vector<std::pair<std::string, bool>>{
             {"admin", e.admin}, {"planner", e.planner}, {"scheduler", e.scheduler}, {"team:vision", e.team}}) {
      grpc::Status status = Call(method, "Bearer " + tokens_.at(role));
      if (allowed) {
        EXPECT_NE(status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << method << " as " << role << ": " << status.error_message();
        EXPECT_NE(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << method << " as " << role;
      } else {
        EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED)
            << method << " as " << role << ": " << status.error_message();
      }
    }
    EXPECT_EQ(Call(method, "").error_code(), grpc::StatusCode::UNAUTHENTICATED) << method;
    EXPECT_EQ(Call(method, "Bearer fct_not-a-token").error_code(), grpc::StatusCode::UNAUTHENTICATED) << method;
  }
}

TEST_F(AuthorizationTest, EveryHttpRouteWithEveryRole) {
  for (const auto& [key, e] : Expected()) {
    if (key[0] == '/') continue;
    const std::string method = key.substr(0, key.find(' '));
    const std::string url = api_->http_base() + HttpTarget(key);
    const std::string body = method == "POST" ? "{}" : "";
    for (const auto& [role, allowed] : std::vector<std::pair<std::string, bool>>{
             {"admin", e.admin}, {"planner", e.planner}, {"scheduler", e.scheduler}, {"team:vision", e.team}}) {
      auto response = testing::HttpRequest(method, url, body, tokens_.at(role));
      ASSERT_THAT(response, IsOk());
      if (allowed) {
        EXPECT_NE(response->status, 403) << key << " as " << role << ": " << response->body;
        EXPECT_NE(response->status, 401) << key << " as " << role;
      } else {
        EXPECT_EQ(response->status, 403) << key << " as " << role << ": " << response->body;
      }
    }
    EXPECT_EQ(testing::HttpRequest(method, url, body, "")->status, 401) << key;
    EXPECT_EQ(testing::HttpRequest(method, url, body, "fct_not-a-token")->status, 401) << key;
  }
}

TEST_F(AuthorizationTest, OutOfScopeDoesNotRevealWhetherATeamExists) {
  const std::string team = tokens_.at("team:vision");
  auto existing = testing::HttpGet(api_->http_base() + "/v1/policy/team?team=ads", team);
  auto missing = testing::HttpGet(api_->http_base() + "/v1/policy/team?team=no-such-team", team);
  auto parent = testing::HttpGet(api_->http_base() + "/v1/policy/team?team=research", team);
  ASSERT_TRUE(existing.ok() && missing.ok() && parent.ok());
  EXPECT_EQ(existing->status, 403);
  EXPECT_EQ(existing->body, missing->body);
  EXPECT_EQ(existing->body, parent->body);
  auto own = testing::HttpGet(api_->http_base() + "/v1/policy/team?team=vision", team);
  ASSERT_EQ(own->status, 200) << own->body;
  EXPECT_THAT(own->body, HasSubstr("vision-detect")) << own->body;
  // Planners see every team, and a missing one is plainly missing.
  EXPECT_EQ(testing::HttpGet(api_->http_base() + "/v1/policy/team?team=ads", tokens_.at("planner"))->status, 200);
  EXPECT_EQ(testing::HttpGet(api_->http_base() + "/v1/policy/team?team=no-such-team", tokens_.at("planner"))->status,
            404);
  // gRPC says the same thing.
  auto stub = v1::PolicyService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  std::string messages[2];
  int i = 0;
  for (const char* name : {"ads", "no-such-team"}) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + team);
    v1::GetTeamRequest request;
    request.set_team(name);
    v1::PolicyTeam response;
    grpc::Status status = stub->GetTeam(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED);
    messages[i++] = status.error_message();
  }
  EXPECT_EQ(messages[0], messages[1]);
}

TEST_F(AuthorizationTest, TeamUsageIsScopedToItsOwnNamespaces) {
  auto stub = v1::UsageService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  auto call = [&](const v1::GetUsageRequest& request) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + tokens_.at("team:vision"));
    v1::UsageReport report;
    return stub->GetUsage(&context, request, &report);
  };
  EXPECT_THAT(call(VisionUsageRequest("vision-ns")), IsOk());
  grpc::Status other = call(VisionUsageRequest("ads-ns"));
  grpc::Status missing = call(VisionUsageRequest("no-such-ns"));
  EXPECT_EQ(other.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(other.error_message(), missing.error_message()) << "must not reveal which namespaces exist";
  v1::GetUsageRequest whole_cluster = VisionUsageRequest("");
  EXPECT_EQ(call(whole_cluster).error_code(), grpc::StatusCode::PERMISSION_DENIED);

  auto http = testing::HttpRequest(
      "GET",
      api_->http_base() + "/v1/usage?cluster=c1&namespace=ads-ns&start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z",
      "", tokens_.at("team:vision"));
  ASSERT_THAT(http, IsOk());
  EXPECT_EQ(http->status, 403) << http->body;
}

TEST_F(AuthorizationTest, ATeamExplainsOnlyItsOwnSubtreeAndBadInputNamesTheField) {
  auto stub =
      v1::ChargebackService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  auto call = [&](const std::string& role, const std::string& team, int64_t hour) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + tokens_.at(role));
    v1::ExplainChargebackRequest request;
    request.set_team(team);
    request.mutable_hour()->set_seconds(hour);
    v1::ChargebackExplanation explanation;
    return stub->ExplainChargeback(&context, request, &explanation);
  };
  const int64_t hour = 1767225600;  // 2026-01-01T00:00:00Z
  EXPECT_THAT(call("team:vision", "vision-detect", hour), IsOk());
  grpc::Status other = call("team:vision", "ads", hour);
  grpc::Status missing = call("team:vision", "no-such-team", hour);
  EXPECT_EQ(other.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(other.error_message(), missing.error_message()) << "must not reveal which teams exist";
  EXPECT_EQ(call("team:vision", "research", hour).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_THAT(call("planner", "ads", hour), IsOk());
  grpc::Status unknown = call("planner", "no-such-team", hour);
  EXPECT_EQ(unknown.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(unknown.error_message(), HasSubstr("team"));
  grpc::Status not_whole = call("planner", "ads", hour + 60);
  EXPECT_EQ(not_whole.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(not_whole.error_message(), HasSubstr("hour"));
}

TEST_F(AuthorizationTest, RecommendationsAreScopedToATeamsSubtree) {
  auto stub =
      v1::AllocationService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  auto get = [&](const std::string& role, const std::string& team, v1::RecommendationSet* set) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + tokens_.at(role));
    v1::GetRecommendationsRequest request;
    request.set_team(team);
    return stub->GetRecommendations(&context, request, set);
  };
  auto teams = [](const v1::RecommendationSet& set) {
    std::vector<std::string> out;
    for (const auto& r : set.recommendations()) out.push_back(r.team());
    return out;
  };
  // Schedulers, planners and admins read every team.
  for (const char* role : {"scheduler", "planner", "admin"}) {
    v1::RecommendationSet set;
    ASSERT_THAT(get(role, "", &set), IsOk()) << role;
    EXPECT_THAT(teams(set), ::testing::ElementsAre("ads", "research", "vision", "vision-detect")) << role;
  }
  // A team token reads its own subtree, with or without naming a team in it.
  v1::RecommendationSet own;
  ASSERT_THAT(get("team:vision", "", &own), IsOk());
  EXPECT_THAT(teams(own), ::testing::ElementsAre("vision", "vision-detect"));
  v1::RecommendationSet below;
  ASSERT_THAT(get("team:vision", "vision-detect", &below), IsOk());
  EXPECT_THAT(teams(below), ::testing::ElementsAre("vision-detect"));
  // Another team, its own parent and a team that does not exist: denied alike.
  std::vector<std::string> messages;
  for (const char* other : {"ads", "research", "no-such-team"}) {
    v1::RecommendationSet set;
    grpc::Status status = get("team:vision", other, &set);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::PERMISSION_DENIED) << other;
    messages.push_back(status.error_message());
  }
  EXPECT_EQ(messages[0], messages[1]);
  EXPECT_EQ(messages[0], messages[2]);
  // A scheduler's filter is just a filter.
  v1::RecommendationSet ads;
  ASSERT_THAT(get("scheduler", "ads", &ads), IsOk());
  EXPECT_THAT(teams(ads), ::testing::ElementsAre("ads"));

  // HTTP says the same.
  auto http_own = testing::HttpGet(api_->http_base() + "/v1/recommendations", tokens_.at("team:vision"));
  ASSERT_THAT(http_own, IsOk());
  ASSERT_EQ(http_own->status, 200) << http_own->body;
  EXPECT_THAT(http_own->body, HasSubstr("\"team\":\"vision-detect\""));
  EXPECT_THAT(http_own->body, ::testing::Not(HasSubstr("\"team\":\"ads\"")));
  auto http_other = testing::HttpGet(api_->http_base() + "/v1/recommendations?team=ads", tokens_.at("team:vision"));
  ASSERT_THAT(http_other, IsOk());
  EXPECT_EQ(http_other->status, 403) << http_other->body;

  // The stream obeys the same rule.
  v1::RecommendationSet first;
  ASSERT_THAT(Watch("Bearer " + tokens_.at("team:vision"), "", &first), IsOk());
  EXPECT_THAT(teams(first), ::testing::ElementsAre("vision", "vision-detect"));
  EXPECT_EQ(Watch("Bearer " + tokens_.at("team:vision"), "ads").error_code(), grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_THAT(Watch("Bearer " + tokens_.at("scheduler"), "", &first), IsOk());
  EXPECT_THAT(teams(first), ::testing::ElementsAre("ads", "research", "vision", "vision-detect"));
}

TEST_F(AuthorizationTest, ForecastsAreScopedToATeamsSubtree) {
  const std::string team = tokens_.at("team:vision");
  const std::string base = api_->http_base() + "/v1/forecast?flavor=a100";
  // Its own subtree's series, without the fleet's capacity.
  auto own = testing::HttpGet(base + "&team=vision-detect&horizon=24h", team);
  ASSERT_THAT(own, IsOk());
  ASSERT_EQ(own->status, 200) << own->body;
  EXPECT_THAT(own->body, HasSubstr("\"team\":\"vision-detect\""));
  EXPECT_THAT(own->body, HasSubstr("\"capacityHistory\":[]"));
  EXPECT_THAT(own->body, HasSubstr("\"capacityForecast\":[]"));
  EXPECT_THAT(own->body, ::testing::Not(HasSubstr("exhaustion")));
  // The flavor's total, another team, its parent, a team that does not exist: refused alike.
  std::vector<std::string> bodies;
  for (const char* query : {"", "&team=ads", "&team=research", "&team=no-such-team"}) {
    auto denied = testing::HttpGet(base + query, team);
    ASSERT_THAT(denied, IsOk());
    EXPECT_EQ(denied->status, 403) << query << ": " << denied->body;
    if (*query != '\0') bodies.push_back(denied->body);
  }
  EXPECT_THAT(bodies[0], HasSubstr("outside the scope"));
  EXPECT_EQ(testing::HttpGet(base + "&team=ads", tokens_.at("planner"))->status, 200);
  // A planner reads the flavor's total with its capacity.
  auto total = testing::HttpGet(base + "&horizon=24h", tokens_.at("planner"));
  ASSERT_THAT(total, IsOk());
  ASSERT_EQ(total->status, 200) << total->body;
  EXPECT_THAT(total->body, HasSubstr("\"capacityForecast\":[{"));

  // The same rule over gRPC.
  auto stub =
      v1::PlanningService::NewStub(grpc::CreateChannel(api_->grpc_address(), grpc::InsecureChannelCredentials()));
  auto call = [&](const std::string& who) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + tokens_.at(who));
    v1::GetForecastRequest request;
    request.set_flavor("a100");
    v1::Forecast forecast;
    return stub->GetForecast(&context, request, &forecast).error_code();
  };
  EXPECT_EQ(call("team:vision"), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(call("planner"), grpc::StatusCode::OK);
}

TEST_F(AuthorizationTest, ATeamsFleetViewIsItsOwnSubtree) {
  const std::string team = tokens_.at("team:vision");
  const std::string base = api_->http_base();
  const std::string window = "start=2026-01-01T00:00:00Z&end=2026-01-01T01:00:00Z";
  // The capacity series: grouped by team, or a team inside the subtree.
  EXPECT_EQ(testing::HttpGet(base + "/v1/fleet/capacity?" + window + "&group_by=team", team)->status, 200);
  EXPECT_EQ(testing::HttpGet(base + "/v1/fleet/capacity?" + window + "&team=vision-detect", team)->status, 200);
  // The fleet's capacity by model or cluster, another team, its parent, a team that does not exist: refused alike.
  std::vector<std::string> bodies;
  for (const char* query : {"&group_by=model", "&group_by=cluster", "&group_by=team&team=ads", "&team=research",
                            "&group_by=team&team=no-such-team"}) {
    auto denied = testing::HttpGet(base + "/v1/fleet/capacity?" + window + query, team);
    ASSERT_THAT(denied, IsOk());
    EXPECT_EQ(denied->status, 403) << query << ": " << denied->body;
    if (std::string(query).find("team=") != std::string::npos) bodies.push_back(denied->body);
  }
  EXPECT_EQ(bodies[0], bodies[1]);
  EXPECT_EQ(bodies[0], bodies[2]);
  EXPECT_EQ(testing::HttpGet(base + "/v1/fleet/capacity?" + window + "&group_by=model", tokens_.at("planner"))->status,
            200);

  // Waiting pods: a team sees its own, planners every one.
  auto own = testing::HttpGet(base + "/v1/fleet/pending", team);
  ASSERT_THAT(own, IsOk());
  ASSERT_EQ(own->status, 200) << own->body;
  EXPECT_THAT(own->body, HasSubstr("\"team\":\"vision-detect\""));
  EXPECT_THAT(own->body, ::testing::Not(HasSubstr("ads")));
  auto all = testing::HttpGet(base + "/v1/fleet/pending?cluster=c1", tokens_.at("planner"));
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->status, 200) << all->body;
  EXPECT_THAT(all->body, HasSubstr("\"team\":\"ads\""));
  EXPECT_THAT(all->body, HasSubstr("\"requestedMilli\":\"3000\""));

  // The chargeback export answers a team only for its subtree.
  auto export_other = testing::HttpGet(base + "/v1/chargeback/export?format=csv&" + window + "&team=ads", team);
  ASSERT_THAT(export_other, IsOk());
  EXPECT_EQ(export_other->status, 403) << export_other->body;
  auto export_own = testing::HttpGet(base + "/v1/chargeback/export?format=csv&" + window, team);
  ASSERT_THAT(export_own, IsOk());
  EXPECT_EQ(export_own->status, 200) << export_own->body;
}

}  // namespace
}  // namespace fleetcap

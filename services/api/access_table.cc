#include "services/api/access_table.h"

namespace fleetcap::api {

const std::map<std::string, Access>& AccessTable() {
  static const auto* table = new std::map<std::string, Access>{
      // FleetService: the whole fleet.
      {"/fleetcap.v1.FleetService/GetFleetSummary", Access::kRead},
      {"GET /v1/fleet/summary", Access::kRead},
      // The capacity series and the waiting pods: the whole fleet for planners; teams held and used of
      // their own subtree, and their own subtree's pods (CapacitySeriesQuery, PendingDemandQuery).
      {"/fleetcap.v1.FleetService/GetCapacitySeries", Access::kTeamRead},
      {"GET /v1/fleet/capacity", Access::kTeamRead},
      {"/fleetcap.v1.FleetService/ListPendingDemand", Access::kTeamRead},
      {"GET /v1/fleet/pending", Access::kTeamRead},
      // UsageService: the whole fleet for planners; teams their own namespaces (UsageQuery::Authorize).
      {"/fleetcap.v1.UsageService/GetUsage", Access::kTeamRead},
      {"GET /v1/usage", Access::kTeamRead},
      // ChargebackService: the whole fleet for planners; teams their own subtree (ChargebackQuery::Run).
      // Schedulers, as for every read API, get no bill.
      {"/fleetcap.v1.ChargebackService/GetChargeback", Access::kTeamRead},
      {"GET /v1/chargeback", Access::kTeamRead},
      // ExplainChargeback: planners and admins any team; team tokens their own subtree (ChargebackExplainQuery).
      {"/fleetcap.v1.ChargebackService/ExplainChargeback", Access::kTeamRead},
      {"GET /v1/chargeback/explain", Access::kTeamRead},
      // The report as CSV or FOCUS, under the same rules as GET /v1/chargeback.
      {"GET /v1/chargeback/export", Access::kTeamRead},
      // AllocationService: schedulers, planners and admins every team; teams their own subtree
      // (RecommendationsQuery::Select), the stream as the single read.
      {"/fleetcap.v1.AllocationService/GetRecommendations", Access::kRecommendations},
      {"/fleetcap.v1.AllocationService/WatchRecommendations", Access::kRecommendations},
      {"GET /v1/recommendations", Access::kRecommendations},
      {"GET /v1/recommendations/manifests", Access::kRecommendations},
      // PlanningService's what-if scenarios: planners and admins (a scenario compares the whole fleet's
      // quotas and bills); a run writes nothing, a save only the scenario.
      {"/fleetcap.v1.PlanningService/RunScenario", Access::kRead},
      {"/fleetcap.v1.PlanningService/SaveScenario", Access::kRead},
      {"/fleetcap.v1.PlanningService/ListScenarios", Access::kRead},
      {"/fleetcap.v1.PlanningService/GetScenario", Access::kRead},
      {"POST /v1/scenarios/run", Access::kRead},
      {"POST /v1/scenarios", Access::kRead},
      {"GET /v1/scenarios", Access::kRead},
      {"GET /v1/scenario", Access::kRead},
      // PlanningService: planners and admins every forecast; teams their own subtree's, never a flavor's
      // total (ForecastQuery::Run).
      {"/fleetcap.v1.PlanningService/GetForecast", Access::kTeamRead},
      {"GET /v1/forecast", Access::kTeamRead},
      // PolicyService: planners read, admins change; teams read their own subtree.
      {"/fleetcap.v1.PolicyService/GetPolicy", Access::kRead},
      {"/fleetcap.v1.PolicyService/ListPolicyVersions", Access::kRead},
      {"/fleetcap.v1.PolicyService/ApplyPolicy", Access::kAdmin},
      {"/fleetcap.v1.PolicyService/RollbackPolicy", Access::kAdmin},
      {"/fleetcap.v1.PolicyService/GetTeam", Access::kTeamRead},
      {"GET /v1/policy", Access::kRead},
      {"GET /v1/policy/history", Access::kRead},
      {"POST /v1/policy", Access::kAdmin},
      {"POST /v1/policy/rollback", Access::kAdmin},
      {"GET /v1/policy/team", Access::kTeamRead},
      // TokenService: admins manage; anyone may ask who they are.
      {"/fleetcap.v1.TokenService/CreateToken", Access::kAdmin},
      {"/fleetcap.v1.TokenService/ListTokens", Access::kAdmin},
      {"/fleetcap.v1.TokenService/RevokeToken", Access::kAdmin},
      {"/fleetcap.v1.TokenService/WhoAmI", Access::kAnyCaller},
      {"GET /v1/tokens", Access::kAdmin},
      {"POST /v1/tokens", Access::kAdmin},
      {"POST /v1/tokens/revoke", Access::kAdmin},
      {"GET /v1/tokens/self", Access::kAnyCaller},
      // AuditService: admins only.
      {"/fleetcap.v1.AuditService/ListAuditEvents", Access::kAdmin},
      {"GET /v1/audit", Access::kAdmin},
  };
  return *table;
}

Access AccessFor(const std::string& key) {
  auto it = AccessTable().find(key);
  return it == AccessTable().end() ? Access::kAdmin : it->second;
}

}  // namespace fleetcap::api

#include "store/distribution_plan.h"

namespace fleetcap::store {
namespace {

PlannedTable ByCluster(const std::string& table, bool time_partitioned = false) {
  return PlannedTable{table, TablePlacement::kDistributed, "cluster", "cluster", time_partitioned};
}
PlannedTable Reference(const std::string& table) {
  return PlannedTable{table, TablePlacement::kReference, "", "", false};
}
PlannedTable CoordinatorLocal(const std::string& table) {
  return PlannedTable{table, TablePlacement::kCoordinatorLocal, "", "", false};
}

// Waste and efficiency (migration 0039), derived per cluster and hour by the
// optimizer's waste pass, with their days (migration 0042) rebuilt beside
// the hours; its marks follow the chargeback's, and its watermarks are read
// beside the chargeback's. Rightsizing (migration 0040):
// each cluster's latest run and its recommendations, which refer to it.
std::vector<PlannedTable> InsightTables() {
  return {ByCluster("insight_waste_runs"),       ByCluster("insight_workload_hours"),
          ByCluster("insight_waste_days"),       ByCluster("insight_workload_days"),
          ByCluster("insight_waste_recompute"),  Reference("insight_waste_watermarks"),
          ByCluster("insight_rightsizing_runs"), ByCluster("insight_rightsizing")};
}

// Usage, one cluster's minutes written by that cluster's telemetry ingest,
// their rollups and the minutes at rest (migration 0037), moved from
// usage_minute, with what the moves need (migrations 0037, 0046).
std::vector<PlannedTable> UsageTables() {
  return {ByCluster("usage_minute", /*time_partitioned=*/true),
          ByCluster("usage_series"),
          ByCluster("usage_series_hour", /*time_partitioned=*/true),
          ByCluster("usage_hours_to_compact"),
          ByCluster("usage_series_days_to_reindex"),
          ByCluster("usage_hourly"),
          ByCluster("usage_hour_changes"),
          ByCluster("usage_cluster_hourly"),
          ByCluster("usage_cluster_hour_changes"),
          ByCluster("telemetry_series"),
          ByCluster("telemetry_watermarks"),
          ByCluster("telemetry_push_devices"),
          ByCluster("telemetry_push_counters"),
          ByCluster("telemetry_push_checkpoints")};
}

std::vector<PlannedTable>* WithUsageAndInsights(std::vector<PlannedTable>* plan) {
  for (PlannedTable& t : UsageTables()) plan->push_back(std::move(t));
  for (PlannedTable& t : InsightTables()) plan->push_back(std::move(t));
  return plan;
}

}  // namespace

const std::vector<PlannedTable>& DistributionPlan() {
  static const auto* plan = WithUsageAndInsights(new std::vector<PlannedTable>{
      // Facts, one cluster's rows written by that cluster's ingest: every key
      // leads with the cluster, so one cluster's rows live on one node.
      ByCluster("nodes"),
      ByCluster("devices"),
      ByCluster("capacity_steps"),
      ByCluster("workloads"),
      ByCluster("pods"),
      ByCluster("holds"),
      ByCluster("pending_demand"),
      ByCluster("namespace_labels"),
      ByCluster("quarantine"),
      // Derived per cluster by the optimizer (fixed costs under cluster '').
      ByCluster("chargeback_hourly"),
      ByCluster("chargeback_hourly_by_team"),
      ByCluster("chargeback_hourly_by_model"),
      ByCluster("chargeback_daily"),
      ByCluster("chargeback_daily_by_team"),
      ByCluster("chargeback_monthly"),
      ByCluster("chargeback_monthly_by_team"),
      ByCluster("chargeback_device_hourly"),
      ByCluster("chargeback_device_daily"),
      ByCluster("chargeback_device_hours_missing"),
      ByCluster("chargeback_over_held"),
      ByCluster("chargeback_recompute"),
      // Kept per cluster by the triggers on devices and holds (the fleet
      // summary now, migration 0032).
      ByCluster("fleet_now"),
      ByCluster("fleet_now_horizon"),
      // Kept per cluster by the triggers on holds, devices and pods (who holds
      // devices now, migration 0033).
      ByCluster("holders_now"),
      // The summary every quarter hour of each cluster's history, forgotten
      // by the triggers on holds, devices and pods (migration 0036).
      ByCluster("instant_checkpoints"),
      ByCluster("summary_checkpoints"),
      ByCluster("holder_checkpoints"),
      // Small and read by every node: the change-marking triggers on every
      // shard read the fleet's watermark (cluster ''), so it is a reference
      // table, read locally wherever a trigger fires.
      Reference("chargeback_watermarks"),
      Reference("clusters"),
      Reference("accelerator_types"),
      Reference("teams"),
      Reference("prices"),
      Reference("policies"),
      Reference("api_tokens"),
      Reference("optimizer_state"),
      Reference("allocation_runs"),
      Reference("allocation_recommendations"),
      // Saved what-if scenarios: few rows, written by planners through the API.
      Reference("scenarios"),
      // Saved views of the dashboard: a few per token, read and written by the API.
      Reference("saved_views"),
      // Written through the coordinator only, never joined with facts. The
      // forecasts are the optimizer's output for the API, read a series at a
      // time by key and large (arrays of points), so not copied to every node.
      CoordinatorLocal("forecast_runs"),
      CoordinatorLocal("forecast_series"),
      CoordinatorLocal("audit_log"),
      CoordinatorLocal("schema_migrations"),
      CoordinatorLocal("schema_repeatables"),
  });
  return *plan;
}

const PlannedTable* FindPlannedTable(const std::string& table) {
  for (const PlannedTable& t : DistributionPlan()) {
    if (t.table == table) return &t;
  }
  return nullptr;
}

const char* TablePlacementName(TablePlacement placement) {
  switch (placement) {
    case TablePlacement::kDistributed:
      return "distributed";
    case TablePlacement::kReference:
      return "reference";
    case TablePlacement::kCoordinatorLocal:
      return "coordinator-local";
  }
  return "unknown";
}

}  // namespace fleetcap::store

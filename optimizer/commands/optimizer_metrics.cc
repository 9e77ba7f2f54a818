#include "optimizer/commands/optimizer_metrics.h"

#include <algorithm>

#include "absl/strings/str_format.h"

namespace fleetcap::optimizer {

OptimizerMetrics::OptimizerMetrics(prometheus::Registry& registry)
    : lag_(prometheus::BuildGauge()
               .Name("fleetcap_optimizer_lag_seconds")
               .Help("The end of the newest closed hour minus the fleet's chargeback watermark")
               .Register(registry)
               .Add({})),
      fleet_lock_(prometheus::BuildGauge()
                      .Name("fleetcap_optimizer_fleet_lock_held")
                      .Help("1 while this instance holds the fleet lock and does the fleet's work (fixed lines, "
                            "policy marks, allocation), else 0")
                      .Register(registry)
                      .Add({})),
      cluster_passes_(prometheus::BuildCounter()
                          .Name("fleetcap_optimizer_cluster_passes_total")
                          .Help("Cluster passes this instance did (under the cluster's lock), by cluster")
                          .Register(registry)),
      cluster_hours_(prometheus::BuildCounter()
                         .Name("fleetcap_optimizer_cluster_hours_computed_total")
                         .Help("Hours of a cluster's chargeback this instance computed, recomputations included, by "
                               "cluster")
                         .Register(registry)),
      hours_(prometheus::BuildCounter()
                 .Name("fleetcap_optimizer_hours_computed_total")
                 .Help("Cluster hours of chargeback computed, recomputations included")
                 .Register(registry)
                 .Add({})),
      recomputations_(prometheus::BuildCounter()
                          .Name("fleetcap_optimizer_recomputations_total")
                          .Help("Computed hours computed again, by the reason they were marked")
                          .Register(registry)),
      pass_seconds_(prometheus::BuildGauge()
                        .Name("fleetcap_optimizer_pass_seconds")
                        .Help("How long the last pass took")
                        .Register(registry)
                        .Add({})),
      rejected_(prometheus::BuildCounter()
                    .Name("fleetcap_optimizer_rejected_facts_total")
                    .Help("Facts the attribution engine left out as unusable")
                    .Register(registry)
                    .Add({})),
      unpriced_(prometheus::BuildCounter()
                    .Name("fleetcap_optimizer_unpriced_device_seconds_total")
                    .Help("Device-seconds in service with no price for their model and cluster")
                    .Register(registry)
                    .Add({})),
      dropped_(prometheus::BuildCounter()
                   .Name("fleetcap_optimizer_recompute_marks_dropped_total")
                   .Help("Hours marked to compute again but older than the settle window, left as they were")
                   .Register(registry)
                   .Add({})),
      allocation_runs_(prometheus::BuildCounter()
                           .Name("fleetcap_optimizer_allocation_runs_total")
                           .Help("Allocation runs after a pass, by result: stored, unchanged, no_policy or failed")
                           .Register(registry)),
      allocation_unplaced_(prometheus::BuildCounter()
                               .Name("fleetcap_optimizer_allocation_unplaced_total")
                               .Help("Held hours and pending pods measured demand could not place on a leaf team "
                                     "and flavor of the policy, by what")
                               .Register(registry)),
      forecast_runs_(prometheus::BuildCounter()
                         .Name("fleetcap_optimizer_forecast_runs_total")
                         .Help("Forecast runs after a pass, by result: stored, not_run (done this interval, no "
                               "policy or no history yet) or failed")
                         .Register(registry)),
      forecast_seconds_(prometheus::BuildGauge()
                            .Name("fleetcap_optimizer_forecast_seconds")
                            .Help("How long the last forecast run that was not skipped took, stored or failed")
                            .Register(registry)
                            .Add({})),
      forecast_series_(prometheus::BuildCounter()
                           .Name("fleetcap_optimizer_forecast_series_total")
                           .Help("Series forecast and stored, each flavor's capacity included")
                           .Register(registry)
                           .Add({})),
      forecast_series_failed_(prometheus::BuildCounter()
                                  .Name("fleetcap_optimizer_forecast_series_failed_total")
                                  .Help("Series the forecast engine refused, left out of their run")
                                  .Register(registry)
                                  .Add({})),
      forecast_last_success_(prometheus::BuildGauge()
                                 .Name("fleetcap_optimizer_forecast_last_success_timestamp_seconds")
                                 .Help("When the last forecast run that was stored began, in Unix seconds (0: none "
                                       "since this instance started)")
                                 .Register(registry)
                                 .Add({})),
      budget_amount_(prometheus::BuildGauge()
                         .Name("fleetcap_budget_amount")
                         .Help("A team's budget for the month (its subtree's spend allowed), in the currency's units")
                         .Register(registry)),
      budget_spent_(prometheus::BuildGauge()
                        .Name("fleetcap_budget_spent")
                        .Help("What the team's subtree spent of the month through the fleet's watermark, in the "
                              "currency's units")
                        .Register(registry)),
      budget_projected_(prometheus::BuildGauge()
                            .Name("fleetcap_budget_projected")
                            .Help("Spent plus the forecast of the rest of the month, in the currency's units")
                            .Register(registry)),
      budget_runs_(prometheus::BuildCounter()
                       .Name("fleetcap_optimizer_budget_runs_total")
                       .Help("Budget computations after a pass of the fleet's instance, by result: computed or failed")
                       .Register(registry)),
      rightsizing_runs_(prometheus::BuildCounter()
                            .Name("fleetcap_optimizer_rightsizing_runs_total")
                            .Help("Rightsizing runs after a pass, by result: stored (some cluster computed), "
                                  "not_run (every cluster current this interval, or no policy) or failed")
                            .Register(registry)),
      rightsizing_seconds_(prometheus::BuildGauge()
                               .Name("fleetcap_optimizer_rightsizing_seconds")
                               .Help("How long the last rightsizing run that computed a cluster took, stored or failed")
                               .Register(registry)
                               .Add({})),
      rightsizing_clusters_(prometheus::BuildCounter()
                                .Name("fleetcap_optimizer_rightsizing_clusters_total")
                                .Help("Clusters whose rightsizing recommendations were computed and stored")
                                .Register(registry)
                                .Add({})),
      rightsizing_recommendations_(prometheus::BuildCounter()
                                       .Name("fleetcap_optimizer_rightsizing_recommendations_total")
                                       .Help("Rightsizing recommendations stored")
                                       .Register(registry)
                                       .Add({})),
      rightsizing_last_success_(prometheus::BuildGauge()
                                    .Name("fleetcap_optimizer_rightsizing_last_success_timestamp_seconds")
                                    .Help("When the last rightsizing run that stored a cluster's recommendations "
                                          "began, in Unix seconds (0: none since this instance started)")
                                    .Register(registry)
                                    .Add({})) {
  for (const char* result : {"stored", "unchanged", "no_policy", "failed"}) allocation_runs_.Add({{"result", result}});
  for (const char* result : {"stored", "not_run", "failed"}) forecast_runs_.Add({{"result", result}});
  for (const char* result : {"stored", "not_run", "failed"}) rightsizing_runs_.Add({{"result", result}});
  for (const char* result : {"computed", "failed"}) budget_runs_.Add({{"result", result}});
  for (const char* what : {"held_hours", "pending_pods"}) allocation_unplaced_.Add({{"what", what}});
}

void OptimizerMetrics::RecordAllocation(const absl::StatusOr<AllocationReport>& report) {
  if (!report.ok()) {
    allocation_runs_.Add({{"result", "failed"}}).Increment();
    return;
  }
  const char* result = report->run_id ? "stored" : report->skipped == "unchanged" ? "unchanged" : "no_policy";
  allocation_runs_.Add({{"result", result}}).Increment();
  allocation_unplaced_.Add({{"what", "held_hours"}}).Increment(static_cast<double>(report->unplaced.held_hours));
  allocation_unplaced_.Add({{"what", "pending_pods"}}).Increment(static_cast<double>(report->unplaced.pending_pods));
}

void OptimizerMetrics::RecordForecast(const absl::StatusOr<ForecastReport>& report, absl::Time began,
                                      absl::Duration took) {
  if (report.ok() && !report->run_id) {
    forecast_runs_.Add({{"result", "not_run"}}).Increment();
    return;
  }
  forecast_seconds_.Set(absl::ToDoubleSeconds(took));
  if (!report.ok()) {
    forecast_runs_.Add({{"result", "failed"}}).Increment();
    return;
  }
  forecast_runs_.Add({{"result", "stored"}}).Increment();
  forecast_series_.Increment(static_cast<double>(report->series));
  forecast_series_failed_.Increment(static_cast<double>(report->failed));
  forecast_last_success_.Set(static_cast<double>(absl::ToUnixSeconds(began)));
}

void OptimizerMetrics::RecordBudgets(const absl::StatusOr<budgets::BudgetPassReport>& report) {
  if (!report.ok()) {
    budget_runs_.Add({{"result", "failed"}}).Increment();
    return;
  }
  budget_runs_.Add({{"result", "computed"}}).Increment();
  std::set<prometheus::Labels> now;
  // Gauges are doubles: exact to the micro-unit below 2^53 micro-units (9e9
  // in the currency's units); the API gives the exact integers.
  const auto units = [](int64_t micro) { return static_cast<double>(micro) / 1e6; };
  for (const budgets::BudgetState& b : report->budgets) {
    const prometheus::Labels labels = {{"team", b.budget.team},
                                       {"month", absl::StrFormat("%04d-%02d", b.budget.year, b.budget.month)},
                                       {"currency", report->currency}};
    budget_amount_.Add(labels).Set(units(b.forecast.amount_micro));
    budget_spent_.Add(labels).Set(units(b.forecast.spent_micro));
    budget_projected_.Add(labels).Set(units(b.forecast.projected_micro));
    now.insert(labels);
  }
  KeepBudgets(std::move(now));
}

void OptimizerMetrics::ClearBudgets() { KeepBudgets({}); }

void OptimizerMetrics::KeepBudgets(std::set<prometheus::Labels> keep) {
  for (const prometheus::Labels& gone : budget_labels_) {
    if (keep.count(gone) > 0) continue;
    for (auto* family : {&budget_amount_, &budget_spent_, &budget_projected_}) family->Remove(&family->Add(gone));
  }
  budget_labels_ = std::move(keep);
}

void OptimizerMetrics::RecordRightsizing(const absl::StatusOr<RightsizingPassReport>& report, absl::Time began,
                                         absl::Duration took) {
  if (report.ok() && report->clusters == 0) {
    rightsizing_runs_.Add({{"result", "not_run"}}).Increment();
    return;
  }
  rightsizing_seconds_.Set(absl::ToDoubleSeconds(took));
  if (!report.ok()) {
    rightsizing_runs_.Add({{"result", "failed"}}).Increment();
    return;
  }
  rightsizing_runs_.Add({{"result", "stored"}}).Increment();
  rightsizing_clusters_.Increment(static_cast<double>(report->clusters));
  rightsizing_recommendations_.Increment(static_cast<double>(report->recommendations));
  rightsizing_last_success_.Set(static_cast<double>(absl::ToUnixSeconds(began)));
}

void OptimizerMetrics::RecordHours(const chargeback::HoursReport& report) {
  hours_.Increment(static_cast<double>(report.hours));
  rejected_.Increment(static_cast<double>(report.rejected_facts));
  unpriced_.Increment(static_cast<double>(report.unpriced_device_seconds));
}

void OptimizerMetrics::RecordClusterPass(const std::string& cluster, int64_t hours) {
  cluster_passes_.Add({{"cluster", cluster}}).Increment();
  cluster_hours_.Add({{"cluster", cluster}}).Increment(static_cast<double>(hours));
}

void OptimizerMetrics::RecordPass(const chargeback::PassReport& report, bool fleet, absl::Duration took) {
  fleet_lock_.Set(fleet ? 1 : 0);
  pass_seconds_.Set(absl::ToDoubleSeconds(took));
  RecordHours(report.computed);
  for (const auto& [reason, hours] : report.recomputed) {
    recomputations_.Add({{"reason", reason}}).Increment(static_cast<double>(hours));
  }
  dropped_.Increment(static_cast<double>(report.marks_dropped));
  if (!fleet) return;
  const absl::Duration lag = report.watermark.has_value()
                                 ? std::max(report.closed_through - *report.watermark, absl::ZeroDuration())
                                 : absl::ZeroDuration();
  lag_.Set(absl::ToDoubleSeconds(lag));
}

}  // namespace fleetcap::optimizer

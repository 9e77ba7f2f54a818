#pragma once
// The optimizer's own /metrics: how far the chargeback lags behind the
// newest closed hour, what each pass computed, and what it could not use;
// which clusters this instance computed and whether it does the fleet's work;
// how the allocation runs went and the demand they could not place; how the
// forecast runs went, how long they took and when one last succeeded; the
// same of the rightsizing runs, with the clusters and recommendations they
// stored; each budget of the month, its spend and its projection
// (docs/insights.md, "Budgets").

#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "optimizer/allocation_pass/allocation_pass.h"
#include "optimizer/budget_pass/budget_pass.h"
#include "optimizer/chargeback/chargeback_run.h"
#include "optimizer/forecast_pass/forecast_pass.h"
#include "optimizer/insights_pass/rightsizing_pass.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace fleetcap::optimizer {

class OptimizerMetrics {
 public:
  // Registers every family at zero, so a scrape before the first pass sees them.
  explicit OptimizerMetrics(prometheus::Registry& registry);

  // `fleet`: whether this instance did the fleet's work (the lag is the
  // fleet's watermark's, known only to it).
  void RecordPass(const chargeback::PassReport& report, bool fleet, absl::Duration took);
  // This instance computed `cluster` in a pass (work shared by cluster):
  // `hours` of it, recomputations included.
  void RecordClusterPass(const std::string& cluster, int64_t hours);
  void RecordHours(const chargeback::HoursReport& report);
  void RecordAllocation(const absl::StatusOr<AllocationReport>& report);
  // A forecast run that began at `began` (wall time) and took `took`; one
  // not run (done this interval, no policy or history) counts only as such.
  void RecordForecast(const absl::StatusOr<ForecastReport>& report, absl::Time began, absl::Duration took);
  // The budgets of the month after a pass of the instance doing the fleet's
  // work: each one's amount, spend and projection, in the currency's units,
  // labelled {team, month, currency}; a budget no longer reported (another
  // month, a policy without it) is removed. A failed run is counted and
  // leaves the last figures, so an alert does not resolve for want of them.
  void RecordBudgets(const absl::StatusOr<budgets::BudgetPassReport>& report);
  // Removes every budget's gauges: the fleet's work is another instance's,
  // which exports them.
  void ClearBudgets();
  // A rightsizing run that began at `began` and took `took`; one that
  // computed no cluster (each current, or no policy) counts only as not run.
  void RecordRightsizing(const absl::StatusOr<RightsizingPassReport>& report, absl::Time began, absl::Duration took);

 private:
  // Removes the budgets' gauges but those of `keep`, which are the budgets exported now.
  void KeepBudgets(std::set<prometheus::Labels> keep);

  prometheus::Gauge& lag_;
  prometheus::Gauge& fleet_lock_;
  prometheus::Family<prometheus::Counter>& cluster_passes_;
  prometheus::Family<prometheus::Counter>& cluster_hours_;
  prometheus::Counter& hours_;
  prometheus::Family<prometheus::Counter>& recomputations_;
  prometheus::Gauge& pass_seconds_;
  prometheus::Counter& rejected_;
  prometheus::Counter& unpriced_;
  prometheus::Counter& dropped_;
  prometheus::Family<prometheus::Counter>& allocation_runs_;
  prometheus::Family<prometheus::Counter>& allocation_unplaced_;
  prometheus::Family<prometheus::Counter>& forecast_runs_;
  prometheus::Gauge& forecast_seconds_;
  prometheus::Counter& forecast_series_;
  prometheus::Counter& forecast_series_failed_;
  prometheus::Gauge& forecast_last_success_;
  prometheus::Family<prometheus::Gauge>& budget_amount_;
  prometheus::Family<prometheus::Gauge>& budget_spent_;
  prometheus::Family<prometheus::Gauge>& budget_projected_;
  prometheus::Family<prometheus::Counter>& budget_runs_;
  std::set<prometheus::Labels> budget_labels_;  // the budgets exported now
  prometheus::Family<prometheus::Counter>& rightsizing_runs_;
  prometheus::Gauge& rightsizing_seconds_;
  prometheus::Counter& rightsizing_clusters_;
  prometheus::Counter& rightsizing_recommendations_;
  prometheus::Gauge& rightsizing_last_success_;
};

}  // namespace fleetcap::optimizer

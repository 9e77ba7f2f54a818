#include "optimizer/insights_pass/rightsizing_pass.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/insights/rightsizing.h"
#include "optimizer/insights_pass/rightsizing_workloads.h"

namespace fleetcap::optimizer {
namespace {

int64_t Periods(absl::Time t, absl::Duration interval) {
  return absl::ToInt64Seconds(t - absl::UnixEpoch()) / absl::ToInt64Seconds(interval);
}

store::RightsizingRecord RecordOf(const insights::Recommendation& r) {
  return {r.namespace_name, r.workload,
          r.model,          r.kind,
          r.team,           r.current,
          r.proposed,       r.current_milli,
          r.proposed_milli, r.savings_micro_per_month,
          r.evidence,       r.observed_minutes,
          r.confidence,     r.p95_active_devices,
          r.p95_activity,   r.p99_memory_bytes};
}

}  // namespace

absl::Status ValidateRightsizingPassOptions(const RightsizingPassOptions& o) {
  if (o.interval < absl::Hours(1) || o.interval % absl::Hours(1) != absl::ZeroDuration() ||
      o.interval > absl::Hours(24 * 31)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--insights-interval: ", absl::FormatDuration(o.interval), " is not whole hours from 1h to 744h"));
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> RightsizingPass::Current(const std::string& cluster, absl::Time now) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto stored, stores_.rightsizing->Latest({cluster, "", std::set<std::string>{}}));
  return !stored.empty() && Periods(stored[0].computed_at, options_.interval) >= Periods(now, options_.interval);
}

absl::Status RightsizingPass::RunCluster(const std::string& cluster, absl::Time start, absl::Time end, absl::Time now,
                                         const policy::PolicyInForce& in_force, RightsizingPassReport& report) {
  FLEETCAP_ASSIGN_OR_RETURN(const store::AttributionFactsRecord facts, stores_.facts->HoldFacts(cluster, start, end));
  FLEETCAP_ASSIGN_OR_RETURN(const teams::NamespaceEvidenceBook book, stores_.directory->Namespaces(cluster, ""));
  const TeamOfPod team_of = [&](const policy::PodEvidence& pod) { return book.TeamOf(*in_force.teams, pod); };
  const policy::PolicyDocument& policy = in_force.teams->policy();
  // A part of the cluster's workloads at a time: only its readings are held.
  std::vector<insights::Recommendation> recommendations;
  for (const store::AttributionFactsRecord& part : WorkloadParts(facts, static_cast<size_t>(options_.batch_holds))) {
    store::PodSeriesFilter filter{cluster, start, end, {}, {}};
    for (const store::DeviceInServiceRecord& d : part.devices) filter.devices.push_back(d.device_id);
    std::set<std::string> pods;
    for (const store::HoldFactRecord& h : part.holds) pods.insert(h.pod_uid);
    filter.pod_uids.assign(pods.begin(), pods.end());
    FLEETCAP_ASSIGN_OR_RETURN(const std::vector<store::UsageMinuteRow> minutes, stores_.usage->PodMinutes(filter));
    const insights::RightsizingInput input{start, end, RightsizingWorkloads(cluster, part, minutes, team_of)};
    for (insights::Recommendation& r : insights::Rightsize(input, policy)) recommendations.push_back(std::move(r));
  }
  insights::SortRecommendations(&recommendations);
  store::RightsizingRun run{cluster, start, end, now, policy.currency, {}};
  for (const insights::Recommendation& r : recommendations) {
    run.recommendations.push_back(RecordOf(r));
    report.savings_micro_per_month += r.savings_micro_per_month;
  }
  FLEETCAP_RETURN_IF_ERROR(stores_.rightsizing->Replace(run));
  report.recommendations += static_cast<int64_t>(run.recommendations.size());
  ++report.clusters;
  return absl::OkStatus();
}

absl::StatusOr<RightsizingPassReport> RightsizingPass::Run() {
  RightsizingPassReport report;
  const absl::Time now = clock_->Now();
  FLEETCAP_RETURN_IF_ERROR(stores_.directory->Refresh());
  const policy::PolicyInForce in_force = stores_.directory->timeline().At(now);
  if (in_force.version == 0) {
    report.skipped = "no policy";
    return report;
  }
  const absl::Time end = absl::FromUnixSeconds(absl::ToUnixSeconds(now) / 3600 * 3600);
  const absl::Time start = end - absl::Hours(24) * in_force.teams->policy().insights.rightsizing_lookback_days;
  FLEETCAP_ASSIGN_OR_RETURN(const auto clusters, stores_.facts->Clusters());
  for (const store::ClusterHistoryRecord& c : clusters) {
    FLEETCAP_ASSIGN_OR_RETURN(const bool current, Current(c.cluster, now));
    if (current) {
      ++report.current;
      continue;
    }
    FLEETCAP_RETURN_IF_ERROR(RunCluster(c.cluster, start, end, now, in_force, report));
  }
  return report;
}

}  // namespace fleetcap::optimizer

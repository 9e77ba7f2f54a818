#include "optimizer/allocation_pass/allocation_pass.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/allocation/policy_engine.h"
#include "optimizer/allocation_pass/allocation_run_builder.h"
#include "optimizer/planning_state/demand_history_loader.h"

namespace fleetcap::optimizer {
namespace {

absl::Time HourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

}  // namespace

std::string AllocationPass::InputsJson(int32_t policy_version, std::optional<absl::Time> watermark,
                                       allocation::AllocationEngine engine) const {
  const allocation::MeasuredDemandOptions& d = options_.demand;
  return store::CanonicalAllocationInputs(absl::StrCat(
      "{\"policy_version\":", policy_version, ",\"engine\":\"", allocation::EngineName(engine), "\"",
      ",\"chargeback_watermark\":", watermark ? absl::StrCat("\"", FormatRfc3339(*watermark), "\"") : "null",
      ",\"lookback_hours\":", d.lookback / absl::Hours(1), ",\"percentile\":", d.percentile,
      ",\"trend_horizon_hours\":", d.trend_horizon / absl::Hours(1),
      ",\"pending_full_weight_seconds\":", absl::ToInt64Seconds(d.pending_full_weight), "}"));
}

absl::StatusOr<AllocationReport> AllocationPass::Run(std::optional<absl::Time> watermark) {
  AllocationReport report;
  FLEETCAP_RETURN_IF_ERROR(stores_.directory->Refresh());
  const absl::Time now = clock_->Now();
  const policy::PolicyInForce in_force = stores_.directory->timeline().At(now);
  if (in_force.version == 0) {
    report.skipped = "no policy";
    return report;
  }
  const policy::TeamResolver& resolver = *in_force.teams;
  const policy::PolicyDocument& policy = resolver.policy();
  const allocation::AllocationEngine engine = allocation::EngineForPolicy(policy);
  const std::string inputs = InputsJson(in_force.version, watermark, engine);
  // The latest run's inputs, read in full only when another run than the one
  // remembered is the latest (at start, or another writer's).
  FLEETCAP_ASSIGN_OR_RETURN(std::optional<int64_t> latest_id, stores_.runs->LatestRunId());
  if (latest_id && (!last_ || last_->run_id != *latest_id)) {
    FLEETCAP_ASSIGN_OR_RETURN(std::optional<store::AllocationRunRecord> latest, stores_.runs->LatestRun());
    last_.reset();
    if (latest) last_ = LastRun{latest->run_id, latest->inputs_json, latest->computed_at};
  }
  if (latest_id && last_ && last_->inputs_json == inputs && now - last_->computed_at < options_.interval) {
    report.skipped = "unchanged";
    return report;
  }

  // Held history ends at the watermark: the hours after it have no chargeback yet.
  const absl::Time end = watermark ? *watermark : HourOf(now);
  FLEETCAP_ASSIGN_OR_RETURN(
      planning_state::DemandHistory history,
      planning_state::LoadDemandHistory(stores_.history, stores_.directory->facts(), resolver,
                                        end - options_.demand.lookback, end, now, options_.max_pending_pods));
  FLEETCAP_ASSIGN_OR_RETURN(
      BuiltAllocationRun built,
      BuildAllocationRun(policy, history, {in_force.version, inputs, engine, now, end, options_.demand}));
  report.unplaced = built.unplaced;
  const store::AllocationRunDraft& draft = built.draft;
  report.recommendations = static_cast<int64_t>(draft.recommendations.size());
  FLEETCAP_ASSIGN_OR_RETURN(int64_t id, stores_.runs->StoreRun(draft));
  report.run_id = id;
  last_ = LastRun{id, inputs, store::AllocationRunTime(now)};
  return report;
}

}  // namespace fleetcap::optimizer

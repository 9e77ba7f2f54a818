#include "optimizer/planning_state/planning_state_loader.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/planning_state/demand_history_loader.h"
#include "policy/policy_parser.h"

namespace fleetcap::planning_state {
namespace {

absl::Time HourOf(absl::Time t) { return absl::FromUnixSeconds(absl::ToUnixSeconds(t) / 3600 * 3600); }

// The fleet's chargeback watermark ("" is the fleet's key, chargeback/chargeback_run.h).
constexpr const char* kFleet = "";

// The held series of the newest stored forecast run for every flavor of
// `policy`: each flavor's total, and each team's that the policy knows or
// that has held history; none before the first run.
absl::StatusOr<std::optional<whatif::StoredForecast>> LoadStoredForecast(
    store::ForecastRepository* forecasts, const policy::PolicyDocument& policy,
    const std::vector<allocation::HeldHour>& held) {
  if (forecasts == nullptr) return std::optional<whatif::StoredForecast>();
  FLEETCAP_ASSIGN_OR_RETURN(std::optional<store::ForecastRunHeader> run, forecasts->LatestRun());
  if (!run) return std::optional<whatif::StoredForecast>();
  std::set<std::string> teams = {"", policy::kUnassignedTeam};
  for (const policy::Team& t : policy.teams) teams.insert(t.name);
  for (const allocation::HeldHour& h : held) teams.insert(h.team);
  whatif::StoredForecast out;
  out.run_id = run->run_id;
  out.forecast_start = run->forecast_start;
  for (const policy::Flavor& flavor : policy.flavors) {
    for (const std::string& team : teams) {
      FLEETCAP_ASSIGN_OR_RETURN(std::optional<store::ForecastSeriesRecord> series,
                                forecasts->Series(run->run_id, {flavor.name, team, "held"}));
      if (series) out.held[{team, flavor.name}] = {std::move(series->p50), std::move(series->p90), series->model};
    }
  }
  return std::optional<whatif::StoredForecast>(std::move(out));
}

}  // namespace

absl::StatusOr<whatif::PlanningState> LoadPlanningState(const PlanningStores& stores,
                                                        const PlanningStateOptions& options, absl::Time now,
                                                        const whatif::ScenarioDocument& scenario) {
  whatif::PlanningState state;
  state.now = now;
  state.demand_options = options.demand;
  auto active = stores.policies->Active();
  if (absl::IsNotFound(active.status())) {
    return absl::FailedPreconditionError("no policy has been applied yet: a scenario needs the active policy");
  }
  FLEETCAP_RETURN_IF_ERROR(active.status());
  state.policy_version = active->version;
  state.policy_yaml = active->document;
  if (scenario.policy && scenario.policy->version && *scenario.policy->version != active->version) {
    auto other = stores.policies->Get(*scenario.policy->version);
    if (other.ok()) {
      state.other_policies[other->version] = other->document;
    } else if (!absl::IsNotFound(other.status())) {
      return other.status();
    }
  }
  policy::ParsedPolicy parsed = policy::ParsePolicy(state.policy_yaml);
  if (!parsed.ok()) {
    return absl::InternalError(absl::StrCat("active policy version ", state.policy_version, " does not validate"));
  }
  const policy::TeamResolver resolver(std::make_shared<const policy::PolicyDocument>(std::move(parsed.document)));

  FLEETCAP_ASSIGN_OR_RETURN(std::optional<absl::Time> watermark, stores.chargeback->Watermark(kFleet));
  // Held history ends at the watermark: the hours after it have no chargeback yet.
  state.history_end = watermark ? HourOf(*watermark) : HourOf(now);
  state.history_end = std::min(state.history_end, HourOf(now));
  state.history_hours = std::max<int64_t>(options.history_hours, options.demand.lookback / absl::Hours(1));
  FLEETCAP_ASSIGN_OR_RETURN(
      DemandHistory history,
      LoadDemandHistory(stores.history, stores.teams, resolver, state.history_end - absl::Hours(state.history_hours),
                        state.history_end, now, options.max_pending_pods));
  state.held = std::move(history.held);
  state.pending = std::move(history.pending);
  FLEETCAP_ASSIGN_OR_RETURN(state.forecast, LoadStoredForecast(stores.forecasts, resolver.policy(), state.held));
  return state;
}

}  // namespace fleetcap::planning_state

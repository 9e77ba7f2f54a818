#include "optimizer/forecast_pass/forecast_history_loader.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "common/status_macros.h"
#include "optimizer/allocation/measured_demand.h"
#include "optimizer/teams/team_directory.h"

namespace fleetcap::optimizer {
namespace {

// The hour index of `t` in the history that starts at `start`.
int64_t HistoryHour(absl::Time start, absl::Time t) { return (t - start) / absl::Hours(1); }

// The team of each wait, resolved with the policy in force now.
absl::StatusOr<std::vector<std::string>> TeamsOfWaits(const std::vector<store::PendingWaitRecord>& waits,
                                                      const policy::TeamResolver& resolver,
                                                      store::TeamFactsRepository* facts) {
  std::vector<policy::PodEvidence> pods;
  pods.reserve(waits.size());
  for (const store::PendingWaitRecord& w : waits)
    pods.push_back({w.pod.cluster, w.pod.namespace_name, w.pod.team_label});
  return teams::ResolveTeams(facts, resolver, pods);
}

// Held: the chargeback's lines, per team and the flavor's total.
absl::Status AddHeld(store::DemandHistoryRepository* history, const policy::PolicyDocument& policy,
                     const ForecastHistoryWindow& window, SeriesSums* sums) {
  FLEETCAP_ASSIGN_OR_RETURN(auto held, history->HeldHours(window.start, window.end));
  for (const store::HeldHourRecord& h : held) {
    const std::optional<std::string> flavor = allocation::FlavorOf(policy, h.cluster, h.model);
    if (!flavor) continue;
    const int64_t hour = HistoryHour(window.start, h.hour);
    sums->Add({*flavor, h.team, kHeldSeries}, hour, h.held_milli_seconds);
    sums->Add({*flavor, "", kHeldSeries}, hour, h.held_milli_seconds);
  }
  return absl::OkStatus();
}

// Pending: each wait's requested milli-devices over the part of each hour it waited.
absl::Status AddPending(const ForecastHistoryStores& stores, const policy::TeamResolver& resolver,
                        const ForecastHistoryWindow& window, SeriesSums* sums) {
  const policy::PolicyDocument& policy = resolver.policy();
  const absl::Time start = window.start, end = window.end;
  FLEETCAP_ASSIGN_OR_RETURN(auto waits, stores.waits->Waits(start, end, window.max_pending_waits));
  FLEETCAP_ASSIGN_OR_RETURN(auto wait_teams, TeamsOfWaits(waits, resolver, stores.teams));
  for (size_t i = 0; i < waits.size(); ++i) {
    const store::PendingPodRecord& pod = waits[i].pod;
    const std::optional<std::string> flavor = allocation::FlavorOf(policy, pod.cluster, pod.model);
    if (!flavor) continue;
    const absl::Time from = std::max(pod.pending_from, start);
    const absl::Time to = std::min(waits[i].until.value_or(end), end);
    for (int64_t hour = HistoryHour(start, from); hour < sums->hours() && start + absl::Hours(hour) < to; ++hour) {
      const absl::Time hour_start = start + absl::Hours(hour);
      const int64_t seconds =
          absl::ToInt64Seconds(std::min(to, hour_start + absl::Hours(1)) - std::max(from, hour_start));
      sums->Add({*flavor, wait_teams[i], kPendingSeries}, hour, pod.requested_milli * seconds);
      sums->Add({*flavor, "", kPendingSeries}, hour, pod.requested_milli * seconds);
    }
  }
  return absl::OkStatus();
}

// Capacity: the devices in service per flavor.
absl::Status AddCapacity(const store::CapacityReadRepository* capacity, const policy::PolicyDocument& policy,
                         const ForecastHistoryWindow& window, SeriesSums* sums) {
  store::CapacityFilter filter;
  filter.start = window.start;
  filter.end = window.end;
  FLEETCAP_ASSIGN_OR_RETURN(auto points, capacity->DeviceTime(filter));
  for (const store::CapacityPoint& p : points) {
    const std::optional<std::string> flavor = allocation::FlavorOf(policy, p.cluster, p.model);
    if (flavor) sums->Add({*flavor, "", kCapacitySeries}, HistoryHour(window.start, p.start), p.milli_seconds);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SeriesSums> LoadForecastHistory(const ForecastHistoryStores& stores,
                                               const policy::TeamResolver& resolver,
                                               const ForecastHistoryWindow& window) {
  const policy::PolicyDocument& policy = resolver.policy();
  SeriesSums sums((window.end - window.start) / absl::Hours(1));
  FLEETCAP_RETURN_IF_ERROR(AddHeld(stores.history, policy, window, &sums));
  FLEETCAP_RETURN_IF_ERROR(AddPending(stores, resolver, window, &sums));
  FLEETCAP_RETURN_IF_ERROR(AddCapacity(stores.capacity, policy, window, &sums));
  // Every flavor of the policy has a total, even one that nothing held yet.
  for (const policy::Flavor& f : policy.flavors) {
    for (const char* what : {kHeldSeries, kPendingSeries, kCapacitySeries}) sums.Ensure({f.name, "", what});
  }
  return sums;
}

}  // namespace fleetcap::optimizer

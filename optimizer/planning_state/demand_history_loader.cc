#include "optimizer/planning_state/demand_history_loader.h"

#include "common/status_macros.h"
#include "optimizer/teams/team_directory.h"

namespace fleetcap::planning_state {
namespace {

std::vector<allocation::HeldHour> HeldOf(const std::vector<store::HeldHourRecord>& records) {
  std::vector<allocation::HeldHour> held;
  held.reserve(records.size());
  for (const auto& r : records) held.push_back({r.team, r.cluster, r.model, r.hour, r.held_milli_seconds});
  return held;
}

// The team of each waiting pod, resolved with the policy in force now.
absl::StatusOr<std::vector<allocation::PendingPod>> PendingOf(const std::vector<store::PendingPodRecord>& records,
                                                              const policy::TeamResolver& resolver,
                                                              store::TeamFactsRepository* facts, absl::Time now) {
  std::vector<policy::PodEvidence> pods;
  pods.reserve(records.size());
  for (const auto& r : records) pods.push_back({r.cluster, r.namespace_name, r.team_label});
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> team_of, teams::ResolveTeams(facts, resolver, pods));
  std::vector<allocation::PendingPod> pending;
  pending.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    pending.push_back({team_of[i], r.cluster, r.model, r.requested_milli, now - r.pending_from});
  }
  return pending;
}

}  // namespace

absl::StatusOr<DemandHistory> LoadDemandHistory(store::DemandHistoryRepository* history,
                                                store::TeamFactsRepository* teams, const policy::TeamResolver& resolver,
                                                absl::Time start, absl::Time end, absl::Time now,
                                                int64_t max_pending_pods) {
  DemandHistory out;
  FLEETCAP_ASSIGN_OR_RETURN(auto held, history->HeldHours(start, end));
  out.held = HeldOf(held);
  FLEETCAP_ASSIGN_OR_RETURN(auto waiting, history->PendingAt(now, max_pending_pods));
  FLEETCAP_ASSIGN_OR_RETURN(out.pending, PendingOf(waiting, resolver, teams, now));
  return out;
}

}  // namespace fleetcap::planning_state

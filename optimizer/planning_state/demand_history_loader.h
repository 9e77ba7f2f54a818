#pragma once
// The held history and waiting pods that measured demand is made of, read
// from the store: held hours as the chargeback's workload lines give them,
// and the pods waiting now with the team the policy in force resolves for
// each. One loader for the optimizer's allocation pass and for what-if
// scenarios (the API), so both measure demand from the same inputs.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/allocation/measured_demand.h"
#include "policy/team_resolution.h"
#include "store/demand_history_repository.h"
#include "store/team_facts_repository.h"

namespace fleetcap::planning_state {

struct DemandHistory {
  std::vector<allocation::HeldHour> held;       // [start, end)
  std::vector<allocation::PendingPod> pending;  // waiting at `now`
};

// Held hours of [start, end) and at most `max_pending_pods` pods waiting at
// `now` (the oldest), each pod's team resolved by `resolver`.
absl::StatusOr<DemandHistory> LoadDemandHistory(store::DemandHistoryRepository* history,
                                                store::TeamFactsRepository* teams, const policy::TeamResolver& resolver,
                                                absl::Time start, absl::Time end, absl::Time now,
                                                int64_t max_pending_pods);

}  // namespace fleetcap::planning_state

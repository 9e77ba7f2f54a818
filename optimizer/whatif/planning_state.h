#pragma once
// What a scenario is applied to: the state the optimizer plans from, read
// from the store once (optimizer/planning_state/ loads it) and never
// changed by a scenario, which works on a copy. Capacity per flavor, prices
// and the allocation rules are the policy's; demand is measured from the
// held history and the waiting pods exactly as the allocation pass measures
// it (allocation/measured_demand.h).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "optimizer/allocation/measured_demand.h"

namespace fleetcap::whatif {

struct PlanningState {
  absl::Time now;             // when the state was read
  absl::Time history_end;     // a whole hour: the chargeback watermark (held history ends there)
  int64_t history_hours = 0;  // hours of held history before history_end that `held` covers
  int32_t policy_version = 0;
  std::string policy_yaml;  // the active policy's document
  // Other stored versions, by number: those a scenario's `policy.version` names.
  std::map<int32_t, std::string> other_policies;
  std::vector<allocation::HeldHour> held;       // within [history_end - history_hours, history_end)
  std::vector<allocation::PendingPod> pending;  // waiting at `now`
  allocation::MeasuredDemandOptions demand_options;
};

}  // namespace fleetcap::whatif

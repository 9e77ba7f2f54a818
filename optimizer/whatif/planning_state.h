#pragma once
// What a scenario is applied to: the state the optimizer plans from, read
// from the store once (optimizer/planning_state/ loads it) and never
// changed by a scenario, which works on a copy. Capacity per flavor, prices
// and the allocation rules are the policy's; demand is measured from the
// held history and the waiting pods exactly as the allocation pass measures
// it (allocation/measured_demand.h).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "optimizer/allocation/measured_demand.h"

namespace fleetcap::whatif {

// One held series of a stored forecast run (store/forecast_repository.h):
// hourly milli-devices from the run's forecast_start, and the model that
// projected them.
struct StoredHeldForecast {
  std::vector<int64_t> p50_milli;
  std::vector<int64_t> p90_milli;
  std::string model;
};

// The forecast pass's newest run: the baseline a scenario is applied to.
struct StoredForecast {
  int64_t run_id = 0;
  absl::Time forecast_start;  // a whole hour: hour 0 of every series
  // By (team, flavor); team "" is the flavor's total.
  std::map<std::pair<std::string, std::string>, StoredHeldForecast> held;
};

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
  // The stored forecast the projected month is read from; none: no run is
  // stored, and the held history is projected here instead.
  std::optional<StoredForecast> forecast;
};

}  // namespace fleetcap::whatif

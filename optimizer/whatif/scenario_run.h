#pragma once
// RunScenario (docs/whatif.md): the scenario applied to a copy of the
// planning state, and side by side with the baseline (the state as it is):
// the allocation engine's recommendations per team and flavor, the
// projected bill of the next calendar month per team (exact micro-units:
// the teams' lines and the idle line add up to the fleet's cost), and per
// flavor its utilisation and the first day the p50 and p90 demand exceed
// capacity within the horizon. Pure and deterministic.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/allocation/recommendation.h"
#include "optimizer/whatif/held_projection.h"
#include "optimizer/whatif/planning_state.h"
#include "optimizer/whatif/scenario_document.h"

namespace fleetcap::whatif {

// How far ahead exhaustion is looked for.
inline constexpr int64_t kHorizonDays = 90;

struct TeamBill {
  std::string team;
  int64_t micro = 0;
  int64_t held_milli_hours = 0;  // the device time it is billed for
  // Flavors where the team has held history but no stored forecast covers
  // its series over the month: `micro` and `held_milli_hours` leave them out,
  // so the bill is unknown, not those figures.
  std::vector<std::string> unknown_flavors;
};

struct FlavorOutlook {
  std::string flavor;
  int64_t capacity_milli = 0;               // at recommendations_at
  int64_t held_milli_hours = 0;             // projected over the month (p50, within capacity)
  int64_t capacity_milli_hours = 0;         // over the month
  int64_t utilisation_ppm = 0;              // held / capacity, parts per million; 0 without capacity
  std::optional<absl::Time> exhausted_p50;  // the UTC day's start; none: not within the horizon
  std::optional<absl::Time> exhausted_p90;
  std::string model;  // what projected the flavor's demand (HeldProjection::model)
  // Some team's series of the flavor has no stored forecast over the month:
  // held_milli_hours and utilisation_ppm count only the series that have.
  bool held_unknown = false;
};

struct ScenarioSide {
  int32_t policy_version = 0;                               // 0 for a patched policy
  std::vector<allocation::Recommendation> recommendations;  // by team, then flavor
  std::vector<TeamBill> bills;                              // by team
  int64_t idle_micro = 0;                                   // capacity no team is projected to hold
  int64_t total_micro = 0;                                  // the fleet's cost: the bills and idle add up to it
  std::vector<FlavorOutlook> flavors;                       // in the policy's order
  // Team x flavor series projected by each model, e.g. {"recent_average": 12}.
  std::vector<std::pair<std::string, int64_t>> projection_models;
  int64_t forecast_run_id = 0;  // the stored forecast run projected from; 0: none, projected here
};

struct ScenarioComparison {
  absl::Time recommendations_at;  // every capacity change in force (and not before the state's now)
  absl::Time month_start;         // the projected month: the next calendar month (UTC)
  absl::Time month_end;
  absl::Time horizon_end;  // exhaustion is looked for before this
  std::string currency;
  ScenarioSide baseline;
  ScenarioSide scenario;
};

// INVALID_ARGUMENT naming the scenario's line and field for a flavor or team
// the policy in use does not know, a stored policy version the state does
// not hold, or a patched policy that does not validate (its problems are
// reported under policy.patch). `forecaster` may be null: every series then
// takes the recent average.
absl::StatusOr<ScenarioComparison> RunScenario(const PlanningState& state, const ScenarioDocument& scenario,
                                               const HeldForecaster* forecaster);

}  // namespace fleetcap::whatif

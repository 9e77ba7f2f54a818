#pragma once
// Measured demand (docs/allocation.md, "Measured demand"): per leaf team and
// flavor, what the team held over a lookback (a high percentile of its hourly
// held milli-devices plus the trend projected over a horizon) and what it
// waited for (accelerator-requesting pods left Pending, weighted by how long
// they waited), unless the policy declares the demand. Pure code: the daemon
// reads the history from the store and hands it here.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "policy/policy_document.h"

namespace fleetcap::allocation {

// The formula's parameters; each has a daemon flag (docs/allocation.md).
struct MeasuredDemandOptions {
  absl::Duration lookback = absl::Hours(7 * 24);        // whole hours of held history
  int percentile = 95;                                  // of the hourly held, 1..100 (nearest rank)
  absl::Duration trend_horizon = absl::Hours(24);       // how far ahead the slope is projected
  absl::Duration pending_full_weight = absl::Hours(1);  // a pod waiting this long counts in full
};

// INVALID_ARGUMENT naming the option for a value outside its range.
absl::Status ValidateMeasuredDemandOptions(const MeasuredDemandOptions& options);

// Held device time of one team on one accelerator model in one cluster over
// one whole hour (`hour` its start), as the chargeback's workload lines give it.
struct HeldHour {
  std::string team;
  std::string cluster;
  std::string model;
  absl::Time hour;
  int64_t held_milli_seconds = 0;
};

// A pod of a team waiting for accelerators: `model` "" when it selects none.
struct PendingPod {
  std::string team;
  std::string cluster;
  std::string model;
  int64_t requested_milli = 0;
  absl::Duration waited;
};

// The demand of one leaf team on one flavor and the numbers it came from.
struct MeasuredDemand {
  std::string team;
  std::string flavor;
  int64_t percentile_milli = 0;  // the percentile of the hourly held
  int64_t trend_milli = 0;       // slope x horizon, never below zero
  int64_t pending_milli = 0;     // sum of requested x min(1, waited / full weight)
  int64_t pending_pods = 0;
  absl::Duration longest_wait;
  int64_t measured_milli = 0;             // percentile + trend + pending: the plain measured figure
  int64_t headroom_milli = 0;             // the policy's demand_headroom_percent of it, rounded up
  std::optional<int64_t> declared_milli;  // the policy's, which replaces the measured sum
  int64_t demand_milli = 0;               // what the engine is given: measured + headroom, or declared
  // e.g. "p95 held 3.500 + trend 0.250 + pending 1.000 (2 pods, longest 40m) = 4.750 devices;
  // + 20% headroom 0.950 = 5.700 devices" (the longest wait in whole minutes)
  std::string explanation;
};

// What could not be placed on a leaf team and flavor of the policy.
struct UnplacedDemand {
  int64_t held_hours = 0;    // held lines of a team that is not a leaf of the policy, or of no flavor
  int64_t pending_pods = 0;  // pods of such a team, or whose cluster and model match no one flavor
};

struct MeasuredDemandSet {
  std::vector<MeasuredDemand> demand;  // by team, then flavor (bytes)
  UnplacedDemand unplaced;
};

// The flavor of `policy` a device of `model` in `cluster` belongs to: the first
// in the policy's order with that model whose cluster selector matches (a
// chargeback line names no node pool, so pools of one model in one cluster
// cannot be told apart; the first flavor takes them). `model` "" (a pending
// pod that selects no model) matches only when exactly one flavor matches
// the cluster. None when no flavor matches.
std::optional<std::string> FlavorOf(const policy::PolicyDocument& policy, const std::string& cluster,
                                    const std::string& model);

// The demand of every leaf team of `policy` on every flavor where it held,
// waited, or the policy declares a demand: the measured sum plus the policy's
// demand_headroom_percent of it (room for growth and for queueing), unless
// declared. `end` is the end of the held
// history (a whole hour: the chargeback's watermark); the lookback is the
// whole hours [end - lookback, end), an hour without lines holding 0. Held
// hours outside it are ignored. Deterministic.
MeasuredDemandSet MeasureDemand(const policy::PolicyDocument& policy, absl::Time end, const std::vector<HeldHour>& held,
                                const std::vector<PendingPod>& pending, const MeasuredDemandOptions& options);

// The hourly held milli-devices of one team on one flavor over the lookback:
// `hours` values, those not in `values` (by index, 0 = the oldest hour) 0.
// Sparse, so a long lookback costs only the hours a team held anything.
struct HourlySeries {
  int64_t hours = 0;
  std::map<int64_t, int64_t> values;
};

// The pieces of the formula, for tests and the explanation.
// Nearest rank: the ceil(p/100 * hours)-th smallest value (0 when no hours).
int64_t PercentileNearestRank(const HourlySeries& series, int percentile);
// The least-squares slope of the values over the hour index, times
// `horizon_hours`, rounded down, never below zero (0 for fewer than two hours).
int64_t TrendOver(const HourlySeries& series, int64_t horizon_hours);
// requested x min(waited, full) / full, rounded down; 0 for a negative wait.
int64_t PendingWeighted(int64_t requested_milli, absl::Duration waited, absl::Duration full);
// `percent` of `measured_milli`, rounded up (a demand with headroom is never
// below what it would take to cover the percentage), within kMaxMilli.
int64_t HeadroomOf(int64_t measured_milli, int64_t percent);

}  // namespace fleetcap::allocation

#pragma once
// Why spend changed (docs/insights.md, "Why spend changed"): the change of
// cost from a previous window to a current one of the same length, split
// into named drivers that add up to it exactly, to the micro-unit, with the
// workloads behind each. Pure code: the chargeback sums of both windows in,
// the drivers out; the result depends on neither the order of the lines nor
// the order of the drivers.
//
// A workload is (team, namespace, workload). One only in the current window
// `started` (its whole cost), one only in the previous `ended` (minus its
// whole cost). For one in both, the change of its direct cost is split
// between `held_time` (total device time held), `model_mix` (the shares of
// that time on each model and cluster) and `price` (the price per held
// device-second of each) by the Shapley value of the three factors, the
// average of every order of changing them; the change of the idle cost it
// received is `idle_share`, of the shared cost it received
// `shared_and_fixed`. The `idle` lines' change is `idle_share`, the
// `shared` and `fixed` lines' `shared_and_fixed`.
//
// Each driver is an exact rational; each is rounded once, down, and the
// micro-units left over go one each to the drivers with the largest
// fractional parts, so the drivers add up to the change. Ties go to the
// earlier driver of kSpendDrivers, on the side where the change (or, with
// none, the first of held_time, model_mix and price not zero) is positive,
// so swapping the windows negates every driver exactly (started and ended
// trading places).

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace fleetcap::insights {

// The drivers, in the order they are reported.
inline constexpr const char* kSpendDrivers[] = {"started", "ended",      "held_time",       "model_mix",
                                                "price",   "idle_share", "shared_and_fixed"};
inline constexpr size_t kSpendDriverCount = sizeof(kSpendDrivers) / sizeof(kSpendDrivers[0]);

// One chargeback sum of a window: the lines of one (team, namespace,
// workload, model, cluster, line_kind) added up over the window.
struct SpendLine {
  std::string team, namespace_name, workload, model, cluster;
  // "workload", "idle", "shared" or "fixed".
  std::string line_kind;
  int64_t held_milli_seconds = 0;
  int64_t direct_cost_micro = 0;
  int64_t idle_cost_micro = 0;
  int64_t shared_cost_micro = 0;
  // direct + idle + shared.
  int64_t total_cost_micro = 0;
};

// What one (team, namespace, workload, model) added to a driver, rounded to
// the nearest micro-unit (halves away from zero): for reading, they need not
// add up to the driver.
struct SpendContribution {
  std::string team, namespace_name, workload, model;
  int64_t change_micro = 0;

  bool operator==(const SpendContribution& o) const;
};

struct SpendDriver {
  std::string name;
  int64_t change_micro = 0;
  // The largest contributions by size, then by key; none that is zero.
  std::vector<SpendContribution> top;

  bool operator==(const SpendDriver& o) const;
};

struct SpendChange {
  int64_t previous_cost_micro = 0;
  int64_t current_cost_micro = 0;
  // current - previous, and the sum of the drivers' change_micro.
  int64_t change_micro = 0;
  // Every driver of kSpendDrivers, in that order.
  std::vector<SpendDriver> drivers;

  bool operator==(const SpendChange& o) const;
};

// The change from `previous` to `current`, with at most `top` contributions
// per driver. INVALID_ARGUMENT for a negative `top`, negative held time, a
// line kind not listed on SpendLine or a line whose parts do not add up to
// its total (naming the window and the line); OUT_OF_RANGE when a window's
// total or the change passes int64.
absl::StatusOr<SpendChange> ExplainSpendChange(const std::vector<SpendLine>& previous,
                                               const std::vector<SpendLine>& current, int top);

}  // namespace fleetcap::insights

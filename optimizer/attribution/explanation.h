#pragma once
// How each line of one team in one hour was made, recorded by the engine
// while it attributes that hour (docs/attribution.md "Explaining a line"):
// the holds and their charges, the idle and shared costs received, the fixed
// part. Every list adds up to its part of the line to the micro-unit.
//
// Exact amounts before rounding are in the engine's weight units:
// micro-units x milli-devices x seconds per hour, 3,600,000 to a micro-unit.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_lines.h"

namespace fleetcap::attribution {

inline constexpr int64_t kWeightPerMicroUnit = 1000 * 3600;

// A price in force over part of a hold's time.
struct PricedSeconds {
  int64_t micro_per_device_hour = 0;  // 0 when unpriced
  bool priced = false;
  int64_t seconds = 0;
};

// One hold, or the part of it with this line's team, within the hour.
struct HoldExplanation {
  std::string pod_uid;
  std::string device_id;
  std::string node;
  int64_t milli = 0;
  absl::Time from;  // within the hour and the device's time in service
  absl::Time to;
  int64_t held_seconds = 0;
  int64_t telemetry_seconds = 0;  // seconds with a usage reading
  int64_t held_milli_seconds = 0;
  int64_t used_milli_seconds = 0;
  std::vector<PricedSeconds> prices;
  Int128 weight = 0;       // its exact charge on the basis, after any over-held split
  bool over_held = false;  // the device was charged past itself: weight is its proportional part
  bool no_telemetry = false;
  int64_t direct_cost_micro = 0;  // its part of the line's direct cost
};

// Idle received from one scope, or (on the idle line) kept from it.
struct IdleExplanation {
  std::string scope;            // "cluster" or "node"
  std::string node;             // with scope "node"
  std::string rule;             // the policy's idle rule: "share", "even" or "keep"
  std::string note;             // on the idle line, why it was kept
  Int128 scope_idle = 0;        // the idle of the scope
  Int128 line_weight = 0;       // the line's charge in the scope
  Int128 scope_weight = 0;      // every line's charge in the scope
  Int128 received = 0;          // what the line got of scope_idle
  int64_t idle_cost_micro = 0;  // its part of the line's idle cost
};

// The cost of shared namespaces in the (cluster, model, hour): received by a
// workload line, given away by a shared line.
struct SharedExplanation {
  std::string spread;      // "weighted" or "even"
  Int128 pool = 0;         // the shared lines' charge and idle
  Int128 line_weight = 0;  // the line's charge and idle it is spread by
  Int128 received = 0;     // spread onto the line (0 on a shared line)
  Int128 given = 0;        // spread away from the line (shared lines)
};

// A fixed line: the team's part of the hour's fixed monthly costs.
struct FixedExplanation {
  std::string spread;             // "weighted" or "even"
  int64_t hour_amount_micro = 0;  // every fixed cost's part of the hour
  int64_t team_weight = 0;        // the team's total of the hour (1 under even)
  int64_t weight_sum = 0;         // every charged team's
};

struct LineExplanation {
  ChargeLine line;
  std::vector<HoldExplanation> holds;
  std::vector<IdleExplanation> idle;
  std::optional<SharedExplanation> shared;
  std::optional<FixedExplanation> fixed;
  // The exact weights of the line's parts, and of its (cluster, model, hour)
  // whose rounded fleet cost the line's total is apportioned from.
  Int128 direct_weight = 0, idle_weight = 0, shared_weight = 0;
  Int128 cell_weight = 0;
  int64_t cell_cost_micro = 0;
};

struct HourExplanation {
  absl::Time hour;
  std::string team;
  std::vector<LineExplanation> lines;  // in the order of the hour's lines
};

// Which lines of an hour to explain: the team's, of one model and cluster
// when given.
struct ExplainRequest {
  absl::Time hour;
  std::string team;
  std::string model;    // "" for every model
  std::string cluster;  // "" for every cluster
};

}  // namespace fleetcap::attribution

#pragma once
// How the cost of one (cluster, model, hour) is divided among its lines
// before rounding: idle shared or kept, shared namespaces spread. Amounts
// are exact integers in the engine's weight units (micro-units x
// milli-devices x seconds per hour); every split is a largest-remainder
// split of an integer, so nothing is created or lost.

#include <cstdint>
#include <utility>
#include <vector>

#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_options.h"

namespace fleetcap::attribution {

// A line of one (cluster, model, hour): one (team, namespace, workload).
struct CellLine {
  uint32_t team, ns, workload;
  bool shared;  // in a shared namespace
  Int128 direct = 0, idle = 0, spread = 0;
  int64_t held = 0, used = 0, observed = 0;
  bool no_telemetry = false;
};

// Adds `idle` to the lines in its scope, `takers` (line index, charge in
// scope; in line order), by the idle rule; what cannot be shared (kept, no
// taker, nothing to weigh by) is added to `kept`.
void ShareIdle(const Options& options, Int128 idle, const std::vector<std::pair<size_t, Int128>>& takers,
               std::vector<CellLine>* lines, Int128* kept);

// Moves the cost of shared-namespace lines onto the other lines, weighted
// or even per team. With no other line, a shared line keeps its cost.
void SpreadShared(const Options& options, std::vector<CellLine>* lines);

}  // namespace fleetcap::attribution

#pragma once
// Heterogeneity-aware allocation (docs/allocation.md "Heterogeneity"), after
// Gavel (Narayanan et al., OSDI 2020): teams run workloads whose throughput
// differs by flavor (a V100 is 11x a K80 for one model, 0.7x for another).
// A linear program, solved with COIN-OR Clp, gives each team devices of each
// flavor so that the smallest weighted normalised effective throughput is as
// large as possible, then hands out what is left. Pure and deterministic: the
// same problem gives the same result, byte for byte.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace fleetcap::allocation {

// Bounds that keep the LP small enough to solve within a scheduling round and
// every quantity within the engine's limits (allocation_problem.h).
inline constexpr size_t kMaxHeterogeneityTeams = 100'000;
inline constexpr size_t kMaxHeterogeneityFlavors = 64;
inline constexpr double kMaxThroughput = 1e9;

struct HeterogeneityFlavor {
  std::string name;
  int64_t capacity_milli = 0;
};

struct HeterogeneityTeam {
  std::string team;
  std::string workload_class;  // a row of the throughput matrix
  int64_t weight = 1;
  // Devices it runs at once, on whichever flavors it is given.
  int64_t demand_milli = 0;
  // Per flavor, in the problem's flavor order; empty: 0 and none.
  std::vector<int64_t> floor_milli;                 // it gets at least this (its guarantee in use)
  std::vector<std::optional<int64_t>> limit_milli;  // nor more than this (guarantee + borrowing limit)
};

struct HeterogeneityProblem {
  std::vector<HeterogeneityFlavor> flavors;
  // Workload class -> throughput per flavor (the flavors' order), any unit
  // that is the same along a row: only ratios within a row matter.
  std::map<std::string, std::vector<double>> throughput;
  std::vector<HeterogeneityTeam> teams;
};

struct HeterogeneityShare {
  HeterogeneityTeam input;
  // Its throughput on an equal share: C_f / n devices of every flavor, scaled
  // down to its demand (0: it can run nowhere, and takes no part).
  double equal_share_throughput = 0;
  // Its effective throughput divided by the equal share's, from exact_milli.
  double normalised_throughput = 0;
  std::vector<long double> exact_milli;    // per flavor, the LP's devices x 1000
  std::vector<int64_t> recommended_milli;  // exact_milli rounded (RoundToTotal, per flavor)
  int64_t recommended_total_milli = 0;
};

struct HeterogeneityAllocation {
  std::vector<HeterogeneityFlavor> flavors;  // the problem's order
  // t*: the largest smallest normalised throughput / weight (first pass).
  double min_weighted_normalised_throughput = 0;
  std::vector<HeterogeneityShare> teams;  // the problem's order
};

// INVALID_ARGUMENT naming the flavor, class or team for: a quantity outside
// 0..kMaxMilli, a weight outside 1..kMaxWeight, an unknown workload class, a
// throughput row of the wrong length or a throughput outside 0..kMaxThroughput,
// a floor above its limit or demand, a repeated team or flavor, more than
// kMaxHeterogeneityTeams teams or kMaxHeterogeneityFlavors flavors, floors
// above a flavor's capacity. INTERNAL when Clp finds no optimum.
absl::StatusOr<HeterogeneityAllocation> AllocateHeterogeneous(const HeterogeneityProblem& problem);

// The equal-share throughput of a team of `demand_milli` devices of `row`
// among `teams` teams (Gavel's normalisation): sum_f row[f] * C_f / n,
// times min(1, demand / (sum_f C_f / n)).
double EqualShareThroughput(const std::vector<double>& row, const std::vector<HeterogeneityFlavor>& flavors,
                            size_t teams, int64_t demand_milli);

}  // namespace fleetcap::allocation

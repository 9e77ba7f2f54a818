#pragma once
// Dominant resource fairness (Ghodsi et al., "Dominant Resource Fairness:
// Fair Allocation of Multiple Resource Types", NSDI 2011): when a flavor's
// tasks need several resources of a node pool at once (accelerators, CPU,
// memory), each user's dominant share -- the largest fraction of any one
// resource it holds -- is equalised, weighted, by progressive filling.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace fleetcap::allocation {

// Resources and per-task needs of at most this much (in any unit) keep the
// exact comparisons within int128.
inline constexpr int64_t kMaxDrfQuantity = 1'000'000'000'000;

struct DrfUser {
  std::string name;
  std::vector<int64_t> per_task;     // one per resource, in the capacity's order
  int64_t weight = 1;                // 1..kMaxWeight
  std::optional<int64_t> max_tasks;  // its demand; none: as many as fit
};

// Tasks per user, in input order. Algorithm 1 of the paper, in whole tasks:
// the user with the smallest weighted dominant share (exact rationals; ties by
// name) launches its next task if it fits in what is left, else it is done.
// INVALID_ARGUMENT naming the user for a wrong number of resources, a need
// that is negative, all zero or above kMaxDrfQuantity, or a bad weight.
// Time O((tasks launched + users) log users).
absl::StatusOr<std::vector<int64_t>> DominantResourceFairness(const std::vector<int64_t>& capacity,
                                                              const std::vector<DrfUser>& users);

}  // namespace fleetcap::allocation

#pragma once
// The allocation engine (docs/allocation.md): per flavor, each leaf team's
// floor (its demand within its guarantee), the capacity it withholds under its
// lending limit, and a weighted max-min fair share of the rest over the org
// tree; rounded to milli-devices, each with what bound it. Pure and
// deterministic: the same problem gives the same result, byte for byte.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/allocation/allocation_problem.h"
#include "optimizer/allocation/org_tree.h"

namespace fleetcap::allocation {

// What bound a recommendation (the `bound_by` of the API).
inline constexpr const char* kBoundByDemand = "demand";
inline constexpr const char* kBoundByGuarantee = "guarantee";
inline constexpr const char* kBoundByBorrowingLimit = "borrowing_limit";
inline constexpr const char* kBoundByLendingLimit = "lending_limit";
inline constexpr const char* kBoundByFairShare = "fair_share";

struct TeamAllocation {
  TeamDemand input;
  int64_t lending_limit_milli = 0;     // the input's, else the guarantee
  int64_t effective_demand_milli = 0;  // e = min(d, g + b)
  int64_t floor_milli = 0;             // f = min(e, g)
  int64_t withheld_milli = 0;          // h = max(0, (g - l) - f)
  long double exact_milli = 0;         // f + fair share, before rounding
  int64_t recommended_milli = 0;       // exact_milli rounded (RoundToTotal)
  std::string bound_by;                // the line that explains it: Explanation() (bound_by.h)
};

struct FlavorAllocation {
  std::string flavor;
  int64_t capacity_milli = 0;
  int64_t floors_milli = 0;           // sum f
  int64_t withheld_milli = 0;         // sum h
  int64_t pool_milli = 0;             // P = C - sum f - sum h, or 0 when negative
  bool oversubscribed = false;        // sum f > C: the floors themselves were shared out
  std::vector<TeamAllocation> teams;  // in input order
};

// One flavor over `tree`. INVALID_ARGUMENT naming the flavor and team for a
// team that is not a leaf of the tree, appears twice, or has a quantity
// outside 0..kMaxMilli or a weight outside 1..kMaxWeight.
absl::StatusOr<FlavorAllocation> AllocateFlavor(const OrgTree& tree, const FlavorDemand& demand);

// Every flavor of `problem`, in its order.
absl::StatusOr<std::vector<FlavorAllocation>> Allocate(const AllocationProblem& problem);

}  // namespace fleetcap::allocation

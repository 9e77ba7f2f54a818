#pragma once
// Quotas in whole devices on the flavors whose pods take entire devices
// (docs/allocation.md "Whole devices"): a scheduler cannot admit 1.564 GPUs.
// The engines divide in milli-devices; on a flavor with `sharing: whole` their
// result is rounded here, per flavor, within the capacity and keeping the
// floors of the guarantees where the capacity allows. MIG and time-sliced
// flavors keep their milli-devices.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "optimizer/allocation/allocation_problem.h"
#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"

namespace fleetcap::allocation {

inline constexpr int64_t kMilliPerDevice = 1000;

// One team's share of a whole-device flavor, in milli-devices.
struct WholeDeviceClaim {
  int64_t exact_milli = 0;               // the engine's recommendation a
  int64_t floor_milli = 0;               // f = min(d, g): the part of its guarantee it uses
  std::optional<int64_t> ceiling_milli;  // g + b; none: may borrow without limit
  int64_t withheld_milli = 0;            // h = max(0, (g - l) - f)
  const std::string* name = nullptr;     // breaks ties, by bytes
};

// Each claim in whole devices (multiples of kMilliPerDevice), in claim order:
// - the devices handed out are N = min(floor(R), the sum of the claims' upper
//   bounds), R = min(C, max(sum a, C - sum h)): never above the capacity, nor
//   into capacity withheld under lending limits unless the engine had already
//   handed that out;
// - a claim's upper bound is a rounded up, and not above g + b rounded down;
// - its lower bound is f rounded up when every claim's fits in N, else f
//   rounded down when those fit, else 0 (never above its upper bound);
// - each a rounded down (within the bounds), then one device more to the
//   largest remainders, ties by name, until the sum is N (RoundToTotal).
std::vector<int64_t> WholeDevices(const std::vector<WholeDeviceClaim>& claims, int64_t capacity_milli);

// `recommendations` (RecommendPolicyProblem's, of `problem` under `policy`)
// rounded to whole devices on every flavor of `policy` whose sharing is
// whole; a rounded recommendation says so at the end of its explanation.
void RoundToWholeDevices(const policy::PolicyDocument& policy, const AllocationProblem& problem,
                         std::vector<Recommendation>& recommendations);

}  // namespace fleetcap::allocation

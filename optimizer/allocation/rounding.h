#pragma once
// Whole milli-devices from exact-enough ones, so that they sum to a given
// total and each stays within its bounds (docs/allocation.md "Rounding").

#include <cstdint>
#include <string>
#include <vector>

namespace fleetcap::allocation {

// Amounts closer than this (milli-devices) are taken as equal: the water-filling's
// long double error is far smaller for amounts within kMaxMilli.
inline constexpr long double kToleranceMilli = 1e-6L;

struct RoundingClaim {
  long double exact = 0;              // the unrounded amount
  int64_t lower = 0;                  // it is never rounded below this
  int64_t upper = 0;                  // nor above this (exact lies within [lower, upper])
  const std::string* name = nullptr;  // breaks ties, by bytes
};

// Each claim rounded down (amounts within kToleranceMilli below a whole
// milli-device count as it), then one milli-device more to the claims with the
// largest remainders (in steps of kToleranceMilli; ties by name) until the sum
// is `total`, never above `upper`. If the roundings down already exceed
// `total` (error in the last digits), the smallest remainders give one back.
std::vector<int64_t> RoundToTotal(const std::vector<RoundingClaim>& claims, int64_t total);

}  // namespace fleetcap::allocation

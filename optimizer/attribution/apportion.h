#pragma once
// Largest-remainder apportionment: the one way the engine splits an amount,
// so every split adds up exactly to what was split.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fleetcap::attribution {

// GCC's 128-bit integer; __extension__ keeps -Wpedantic quiet about it.
__extension__ typedef __int128 Int128;

// Splits `total` (>= 0) in proportion to `weights` (each >= 0) into `out`
// (resized to weights.size()). Each part is floor(total * w / sum) plus at
// most one unit; the units left over go, one each, to the largest
// remainders. Ties go to the larger weight, then to the lower index, so the
// result depends only on the inputs' values and order. All weights zero:
// split evenly. Weights whose sum exceeds 2^62 are scaled down together
// first (a relative change below 2^-62, and still an exact split of `total`).
void Apportion(Int128 total, const std::vector<Int128>& weights, std::vector<Int128>* out);

// `total` split evenly over `n` parts, the extra units to the first parts.
void ApportionEvenly(Int128 total, size_t n, std::vector<Int128>* out);

}  // namespace fleetcap::attribution

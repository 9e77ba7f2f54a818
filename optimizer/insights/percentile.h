#pragma once
// Percentiles of observed values, by linear interpolation between the two
// nearest ranks (the common definition, numpy's default): for n sorted
// values x[0..n-1] the p-th is x[i] + f (x[i + 1] - x[i]), where i and f are
// the whole and fractional parts of h = (n - 1) p / 100, worked out in
// integers so that a rank is never missed by a rounding. A p95 of 5.2
// devices is a p95 between 5 and 6.

#include <optional>
#include <vector>

namespace fleetcap::insights {

// The `percent`-th percentile (0..100) of `values`, or none when there are none.
std::optional<double> Percentile(std::vector<double> values, int percent);

}  // namespace fleetcap::insights

#include "optimizer/insights/percentile.h"

#include <algorithm>
#include <cstdint>

namespace fleetcap::insights {

std::optional<double> Percentile(std::vector<double> values, int percent) {
  if (values.empty()) return std::nullopt;
  const uint64_t scaled = static_cast<uint64_t>(values.size() - 1) * static_cast<uint64_t>(std::clamp(percent, 0, 100));
  const size_t lo = static_cast<size_t>(scaled / 100);
  const double fraction = static_cast<double>(scaled % 100) / 100.0;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lo), values.end());
  const double x_lo = values[lo];
  if (fraction == 0.0) return x_lo;
  // Past the lo-th, the smallest of the rest is the next rank.
  const double x_hi = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(lo) + 1, values.end());
  return x_lo + fraction * (x_hi - x_lo);
}

}  // namespace fleetcap::insights

#include "optimizer/allocation/rounding.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fleetcap::allocation {

std::vector<int64_t> RoundToTotal(const std::vector<RoundingClaim>& claims, int64_t total) {
  const size_t n = claims.size();
  std::vector<int64_t> out(n);
  std::vector<int64_t> remainder(n);  // in kToleranceMilli steps, 0..999999
  int64_t sum = 0;
  for (size_t i = 0; i < n; ++i) {
    const RoundingClaim& c = claims[i];
    int64_t down = static_cast<int64_t>(std::floor(c.exact + kToleranceMilli));
    down = std::clamp(down, c.lower, c.upper);
    out[i] = down;
    const long double r = (c.exact - static_cast<long double>(down)) / kToleranceMilli;
    remainder[i] = std::clamp<int64_t>(std::llround(r), 0, 999999);
    sum += down;
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Largest remainder first; equal remainders by name, then position.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (remainder[a] != remainder[b]) return remainder[a] > remainder[b];
    return *claims[a].name < *claims[b].name;
  });
  for (size_t k = 0; k < n && sum < total; ++k) {
    const size_t i = order[k];
    if (out[i] < claims[i].upper) {
      ++out[i];
      ++sum;
    }
  }
  for (size_t k = n; k > 0 && sum > total; --k) {
    const size_t i = order[k - 1];
    if (out[i] > claims[i].lower) {
      --out[i];
      --sum;
    }
  }
  return out;
}

}  // namespace fleetcap::allocation

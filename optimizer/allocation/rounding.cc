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
  // Largest remainder first; equal remainders by name, then position. Only
  // which claims come first matters, not their order among themselves: each
  // of the first `missing` claims that can still go up gets one milli-device
  // (or each of the last `excess` that can go down gives one back), so a
  // selection (linear) picks them where a sort would cost n log n.
  auto before = [&](size_t a, size_t b) {
    if (remainder[a] != remainder[b]) return remainder[a] > remainder[b];
    const int names = claims[a].name->compare(*claims[b].name);
    return names != 0 ? names < 0 : a < b;
  };
  std::vector<size_t> eligible;
  if (sum != total) eligible.reserve(n);
  if (sum < total) {
    for (size_t i = 0; i < n; ++i) {
      if (out[i] < claims[i].upper) eligible.push_back(i);
    }
    const size_t missing = static_cast<size_t>(std::min<int64_t>(total - sum, static_cast<int64_t>(eligible.size())));
    std::nth_element(eligible.begin(), eligible.begin() + static_cast<std::ptrdiff_t>(missing), eligible.end(), before);
    for (size_t k = 0; k < missing; ++k) ++out[eligible[k]];
  } else if (sum > total) {
    for (size_t i = 0; i < n; ++i) {
      if (out[i] > claims[i].lower) eligible.push_back(i);
    }
    const size_t excess = static_cast<size_t>(std::min<int64_t>(sum - total, static_cast<int64_t>(eligible.size())));
    const auto cut = eligible.end() - static_cast<std::ptrdiff_t>(excess);
    std::nth_element(eligible.begin(), cut, eligible.end(), before);
    for (auto it = cut; it != eligible.end(); ++it) --out[*it];
  }
  return out;
}

}  // namespace fleetcap::allocation

#include "optimizer/attribution/apportion.h"

#include <algorithm>
#include <numeric>

namespace fleetcap::attribution {
namespace {

constexpr Int128 kMaxWeightSum = Int128{1} << 62;

}  // namespace

void Apportion(Int128 total, const std::vector<Int128>& weights, std::vector<Int128>* out) {
  const size_t n = weights.size();
  out->assign(n, 0);
  if (n == 0) return;
  std::vector<Int128> w = weights;
  Int128 sum = 0;
  for (Int128 x : w) sum += x;
  if (sum == 0) {
    ApportionEvenly(total, n, out);
    return;
  }
  // r * w below stays under 2^124.
  while (sum >= kMaxWeightSum) {
    sum = 0;
    for (Int128& x : w) {
      x >>= 1;
      sum += x;
    }
  }
  if (sum == 0) {
    ApportionEvenly(total, n, out);
    return;
  }
  const Int128 q = total / sum;
  const Int128 r = total % sum;
  std::vector<Int128> rem(n);
  Int128 given = 0;
  for (size_t i = 0; i < n; ++i) {
    (*out)[i] = q * w[i] + (r * w[i]) / sum;
    rem[i] = (r * w[i]) % sum;
    given += (*out)[i];
  }
  Int128 left = total - given;  // < n
  if (left == 0) return;
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (rem[a] != rem[b]) return rem[a] > rem[b];
    if (w[a] != w[b]) return w[a] > w[b];
    return a < b;
  });
  for (size_t k = 0; left > 0; ++k, --left) ++(*out)[order[k]];
}

void ApportionEvenly(Int128 total, size_t n, std::vector<Int128>* out) {
  out->assign(n, 0);
  if (n == 0) return;
  const Int128 each = total / static_cast<Int128>(n);
  Int128 left = total % static_cast<Int128>(n);
  for (size_t i = 0; i < n; ++i) (*out)[i] = each + (static_cast<Int128>(i) < left ? 1 : 0);
}

}  // namespace fleetcap::attribution

#include "optimizer/allocation/water_filling.h"

#include <algorithm>
#include <numeric>

#include "absl/numeric/int128.h"

namespace fleetcap::allocation {

namespace {

// SplitByWeight into `share` (sized as caps), with `order` as scratch: the
// tree walk calls it once per node and keeps both buffers between calls.
void SplitInto(long double amount, const std::vector<int64_t>& caps, const std::vector<int64_t>& weights,
               std::vector<size_t>& order, std::vector<long double>& share) {
  const size_t n = caps.size();
  share.assign(n, 0.0L);
  const absl::int128 cap_sum = std::accumulate(caps.begin(), caps.end(), absl::int128(0));
  if (amount >= static_cast<long double>(cap_sum)) {
    for (size_t i = 0; i < n; ++i) share[i] = static_cast<long double>(caps[i]);
    return;
  }
  if (amount <= 0) return;
  // Claimants in the order they fill up: by cap/weight (exact, as int128
  // cross products), then by position, which the callers make name order.
  order.resize(n);
  std::iota(order.begin(), order.end(), 0);
  // A total order (position breaks ties), so std::sort, which needs no
  // buffer, gives what a stable sort by cap/weight alone would.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const absl::int128 x = absl::int128(caps[a]) * weights[b], y = absl::int128(caps[b]) * weights[a];
    return x != y ? x < y : a < b;
  });
  long double left = amount;
  absl::int128 weight_left = 0;
  for (size_t i = 0; i < n; ++i) weight_left += weights[i];
  size_t k = 0;
  // Claimant order[k] fills up when its cap/weight is at most the level the
  // rest would reach without it filling: left / weight_left.
  for (; k < n; ++k) {
    const size_t c = order[k];
    if (static_cast<long double>(caps[c]) * static_cast<long double>(weight_left) >
        left * static_cast<long double>(weights[c])) {
      break;
    }
    share[c] = static_cast<long double>(caps[c]);
    left -= share[c];
    weight_left -= weights[c];
  }
  if (left < 0) left = 0;
  for (; k < n; ++k) {
    const size_t c = order[k];
    share[c] = left * static_cast<long double>(weights[c]) / static_cast<long double>(weight_left);
  }
}

}  // namespace

std::vector<long double> SplitByWeight(long double amount, const std::vector<int64_t>& caps,
                                       const std::vector<int64_t>& weights) {
  std::vector<size_t> order;
  std::vector<long double> share;
  SplitInto(amount, caps, weights, order, share);
  return share;
}

std::vector<long double> HierarchicalWaterFill(const OrgTree& tree, long double amount,
                                               const std::vector<int64_t>& leaf_caps,
                                               const std::vector<int64_t>& weights) {
  const auto& nodes = tree.nodes();
  const auto& order = tree.top_down();
  if (nodes.empty()) return {};  // no root: nothing to hand out
  // A subtree's cap: the sum of its leaves' caps (bounded by kMaxTeams * kMaxMilli).
  std::vector<int64_t> cap(nodes.size(), 0);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const int n = *it;
    if (tree.IsLeaf(n)) {
      cap[n] = n == 0 ? 0 : leaf_caps[n];
    }
    if (n != 0) cap[nodes[n].parent] += cap[n];
  }
  // The root gets the amount (built by push_back: gcc -O2 cannot see that
  // a vector sized by nodes.size() is not empty, and warns).
  std::vector<long double> got;
  got.reserve(nodes.size());
  got.push_back(amount);
  got.resize(nodes.size(), 0.0L);
  std::vector<int64_t> child_caps, child_weights;
  std::vector<size_t> order_scratch;
  std::vector<long double> split;
  for (int n : order) {
    const auto& children = nodes[n].children;
    if (children.empty() || got[n] <= 0) continue;
    child_caps.clear();
    child_weights.clear();
    for (int c : children) {
      child_caps.push_back(cap[c]);
      child_weights.push_back(weights[c]);
    }
    SplitInto(got[n], child_caps, child_weights, order_scratch, split);
    for (size_t i = 0; i < children.size(); ++i) got[children[i]] = split[i];
  }
  return got;
}

}  // namespace fleetcap::allocation

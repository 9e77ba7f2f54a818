#include "optimizer/allocation/water_filling.h"

#include <algorithm>
#include <numeric>

#include "absl/numeric/int128.h"

namespace fleetcap::allocation {

namespace {

// SplitByWeight of the `n` claimants at `caps` and `weights` into `share`
// (all three runs of n; `share` all zero on entry: it is left so when there
// is nothing to split), with `order` as scratch: the tree walk calls it once
// per node on the node's children, which sit side by side in its arrays.
void SplitInto(long double amount, const int64_t* caps, const int64_t* weights, size_t n, std::vector<size_t>& order,
               long double* share) {
  const absl::int128 cap_sum = std::accumulate(caps, caps + n, absl::int128(0));
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
  std::vector<long double> share(caps.size());
  SplitInto(amount, caps.data(), weights.data(), caps.size(), order, share.data());
  return share;
}

std::vector<long double> HierarchicalWaterFill(const OrgTree& tree, long double amount,
                                               const std::vector<int64_t>& leaf_caps,
                                               const std::vector<int64_t>& weights) {
  const auto& nodes = tree.nodes();
  const auto& order = tree.top_down();
  if (nodes.empty()) return {};  // no root: nothing to hand out
  // The walk works on positions in `order` rather than on nodes: it is
  // breadth first, so every node's children sit side by side there (the
  // children of the node at position i start where those of position i - 1
  // end), and each split reads its children's caps and weights, and writes
  // their amounts, in place: no gathering into scratch vectors per node.
  const size_t count = order.size();  // every node: OrgTree::Build refuses cycles
  std::vector<size_t> first_child(count);
  std::vector<int64_t> cap(count, 0), weight(count);
  size_t next = 1;
  for (size_t i = 0; i < count; ++i) {
    first_child[i] = next;
    next += nodes[order[i]].children.size();
    weight[i] = weights[order[i]];
  }
  // A subtree's cap: the sum of its leaves' caps (bounded by kMaxTeams * kMaxMilli).
  for (size_t i = count; i-- > 0;) {
    const int n = order[i];
    const size_t children = nodes[n].children.size();
    if (children == 0) {
      cap[i] = n == 0 ? 0 : leaf_caps[n];
    } else {
      for (size_t c = first_child[i]; c < first_child[i] + children; ++c) cap[i] += cap[c];
    }
  }
  // The root gets the amount (built by push_back: gcc -O2 cannot see that
  // a vector sized by nodes.size() is not empty, and warns).
  std::vector<long double> got_at;
  got_at.reserve(count);
  got_at.push_back(amount);
  got_at.resize(count, 0.0L);
  std::vector<size_t> order_scratch;
  for (size_t i = 0; i < count; ++i) {
    const size_t children = nodes[order[i]].children.size();
    if (children == 0 || got_at[i] <= 0) continue;
    const size_t first = first_child[i];
    SplitInto(got_at[i], &cap[first], &weight[first], children, order_scratch, &got_at[first]);
  }
  std::vector<long double> got(nodes.size());
  for (size_t i = 0; i < count; ++i) got[order[i]] = got_at[i];
  return got;
}

}  // namespace fleetcap::allocation

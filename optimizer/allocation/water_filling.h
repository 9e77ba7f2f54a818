#pragma once
// Weighted max-min fair division (water-filling), on one level and over the
// org tree. Caps and weights are exact integers; the amounts divided are long
// double because a share of a share need not be a whole milli-device (the
// engine rounds once, at the end; docs/allocation.md "Rounding").

#include <cstdint>
#include <vector>

#include "optimizer/allocation/org_tree.h"

namespace fleetcap::allocation {

// Splits `amount` among claimants with `caps` and `weights` (each >= 1) so
// that the smallest share/weight is as large as possible, no share exceeds
// its cap, and nothing is left while a claimant is below its cap: each gets
// min(cap, level * weight) for the one level that spends min(amount, sum of
// caps). A claimant at its cap gets its cap exactly.
std::vector<long double> SplitByWeight(long double amount, const std::vector<int64_t>& caps,
                                       const std::vector<int64_t>& weights);

// Hierarchical water-filling: `amount` enters at the root; every node splits
// what reaches it among its children by SplitByWeight, each child capped at
// the sum of `leaf_caps` below it and weighted by `weights`. Both are indexed
// by node (the caps of interior nodes are ignored: they are the sums). Returns
// the amount that reaches each node.
std::vector<long double> HierarchicalWaterFill(const OrgTree& tree, long double amount,
                                               const std::vector<int64_t>& leaf_caps,
                                               const std::vector<int64_t>& weights);

}  // namespace fleetcap::allocation

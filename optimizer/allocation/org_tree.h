#pragma once
// The org tree as the water-filling walks it: node 0 is a virtual root above
// the policy's roots, children are ordered by name (bytes) so that every walk,
// and so every result, is the same for the same input.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "optimizer/allocation/allocation_problem.h"

namespace fleetcap::allocation {

class OrgTree {
 public:
  struct Node {
    std::string name;  // empty for the virtual root
    int parent = -1;   // -1 for the virtual root
    int64_t weight = 1;
    std::vector<int> children;
  };

  // INVALID_ARGUMENT naming the team for a repeated name, an unknown parent,
  // a cycle, a weight outside 1..kMaxWeight or more than kMaxTeams teams.
  static absl::StatusOr<OrgTree> Build(const std::vector<OrgNode>& teams);

  const std::vector<Node>& nodes() const { return nodes_; }
  // Every node, parents before children (breadth first from the root).
  const std::vector<int>& top_down() const { return top_down_; }
  std::optional<int> Find(const std::string& name) const;
  // Find for names that usually come in name order (the engine's flavors
  // list their teams so): `cursor` is the rank where the previous name was
  // found (start at SIZE_MAX, "before the first"); the next name in order
  // costs one comparison, any other a binary search.
  std::optional<int> FindNext(const std::string& name, size_t& cursor) const;
  bool IsLeaf(int node) const { return nodes_[node].children.empty(); }

 private:
  // The first rank whose name is not below `name` (key: NameKey(name)).
  size_t LowerBound(uint64_t key, const std::string& name) const;
  // Whether the name at `rank` is `name` (key: NameKey(name)).
  bool NameAt(size_t rank, uint64_t key, const std::string& name) const;

  std::vector<Node> nodes_;
  std::vector<int> top_down_;
  std::vector<int> by_name_;    // node indices (1..), sorted by name
  std::vector<uint64_t> keys_;  // NameKey of each name of by_name_, in its order
};

}  // namespace fleetcap::allocation

#include "optimizer/allocation/org_tree.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fleetcap::allocation {
namespace {

// The first 8 bytes of a name as a big-endian number, a shorter name padded
// with zero bytes. Names whose keys differ compare as their keys (bytes are
// compared unsigned, as std::string does), so most comparisons of the sort
// and of the searches are one integer comparison instead of a memcmp call;
// equal keys fall back to comparing the names.
uint64_t NameKey(const std::string& name) {
  const auto* p = reinterpret_cast<const unsigned char*>(name.data());
  if (name.size() >= 8) {  // one 8-byte load (compilers merge these into a load and a byte swap)
    return uint64_t{p[0]} << 56 | uint64_t{p[1]} << 48 | uint64_t{p[2]} << 40 | uint64_t{p[3]} << 32 |
           uint64_t{p[4]} << 24 | uint64_t{p[5]} << 16 | uint64_t{p[6]} << 8 | uint64_t{p[7]};
  }
  uint64_t key = 0;
  for (size_t i = 0; i < name.size(); ++i) key |= uint64_t{p[i]} << (56 - 8 * i);
  return key;
}

}  // namespace

absl::StatusOr<OrgTree> OrgTree::Build(const std::vector<OrgNode>& teams) {
  if (teams.size() > kMaxTeams) {
    return absl::InvalidArgumentError(absl::StrCat("org tree: ", teams.size(), " teams, expected at most ", kMaxTeams));
  }
  OrgTree tree;
  tree.nodes_.push_back(Node{});
  for (const OrgNode& t : teams) {
    if (t.name.empty()) return absl::InvalidArgumentError("org tree: a team has no name");
    if (t.weight < 1 || t.weight > kMaxWeight) {
      return absl::InvalidArgumentError(
          absl::StrCat("org tree: team ", t.name, " has weight ", t.weight, " (expected 1 to ", kMaxWeight, ")"));
    }
    tree.nodes_.push_back(Node{t.name, -1, t.weight, {}});
  }
  std::vector<std::pair<uint64_t, int>> ranked(teams.size());  // (key, node)
  for (size_t i = 0; i < teams.size(); ++i) ranked[i] = {NameKey(teams[i].name), static_cast<int>(i + 1)};
  std::sort(ranked.begin(), ranked.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : tree.nodes_[a.second].name < tree.nodes_[b.second].name;
  });
  tree.by_name_.resize(teams.size());
  tree.keys_.resize(teams.size());
  for (size_t i = 0; i < ranked.size(); ++i) {
    tree.keys_[i] = ranked[i].first;
    tree.by_name_[i] = ranked[i].second;
  }
  for (size_t i = 1; i < tree.by_name_.size(); ++i) {
    if (tree.keys_[i] == tree.keys_[i - 1] &&
        tree.nodes_[tree.by_name_[i]].name == tree.nodes_[tree.by_name_[i - 1]].name) {
      return absl::InvalidArgumentError(
          absl::StrCat("org tree: team ", tree.nodes_[tree.by_name_[i]].name, " is defined twice"));
    }
  }
  for (size_t i = 0; i < teams.size(); ++i) {
    int parent = 0;
    if (!teams[i].parent.empty()) {
      std::optional<int> p = tree.Find(teams[i].parent);
      if (!p) {
        return absl::InvalidArgumentError(
            absl::StrCat("org tree: team ", teams[i].name, " has an unknown parent ", teams[i].parent));
      }
      parent = *p;
    }
    tree.nodes_[i + 1].parent = parent;
  }
  // Children in name order: by_name_ is sorted, so appending in its order sorts them.
  for (int n : tree.by_name_) tree.nodes_[tree.nodes_[n].parent].children.push_back(n);
  tree.top_down_.push_back(0);
  for (size_t i = 0; i < tree.top_down_.size(); ++i) {
    for (int c : tree.nodes_[tree.top_down_[i]].children) tree.top_down_.push_back(c);
  }
  // Teams on a cycle are never reached from the root.
  if (tree.top_down_.size() != tree.nodes_.size()) {
    std::vector<bool> reached(tree.nodes_.size(), false);
    for (int n : tree.top_down_) reached[n] = true;
    for (int n : tree.by_name_) {
      if (!reached[n]) {
        return absl::InvalidArgumentError(absl::StrCat("org tree: team ", tree.nodes_[n].name,
                                                       " is on a cycle (expected every team to reach a root)"));
      }
    }
  }
  return tree;
}

bool OrgTree::NameAt(size_t rank, uint64_t key, const std::string& name) const {
  if (rank >= by_name_.size() || keys_[rank] != key) return false;
  const std::string& at = nodes_[by_name_[rank]].name;
  // Equal keys and sizes: names of at most 8 bytes are equal, longer ones
  // differ, if at all, after the 8th.
  return at.size() == name.size() &&
         (name.size() <= 8 || std::memcmp(at.data() + 8, name.data() + 8, name.size() - 8) == 0);
}

size_t OrgTree::LowerBound(uint64_t key, const std::string& name) const {
  size_t lo = 0, count = by_name_.size();
  while (count > 0) {
    const size_t half = count / 2, mid = lo + half;
    const bool below = keys_[mid] != key ? keys_[mid] < key : nodes_[by_name_[mid]].name < name;
    if (below) {
      lo = mid + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return lo;
}

std::optional<int> OrgTree::FindNext(const std::string& name, size_t& cursor) const {
  const uint64_t key = NameKey(name);
  // The next rank first (names in order), then the same one (a repeat).
  for (const size_t at : {cursor + 1, cursor}) {
    if (NameAt(at, key, name)) {
      cursor = at;
      return by_name_[at];
    }
  }
  const size_t at = LowerBound(key, name);
  if (!NameAt(at, key, name)) return std::nullopt;
  cursor = at;
  return by_name_[at];
}

std::optional<int> OrgTree::Find(const std::string& name) const {
  const uint64_t key = NameKey(name);
  const size_t at = LowerBound(key, name);
  if (!NameAt(at, key, name)) return std::nullopt;
  return by_name_[at];
}

}  // namespace fleetcap::allocation

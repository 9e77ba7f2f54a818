#include "optimizer/allocation/org_tree.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace fleetcap::allocation {

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
  tree.by_name_.resize(teams.size());
  for (size_t i = 0; i < teams.size(); ++i) tree.by_name_[i] = static_cast<int>(i + 1);
  std::sort(tree.by_name_.begin(), tree.by_name_.end(),
            [&](int a, int b) { return tree.nodes_[a].name < tree.nodes_[b].name; });
  for (size_t i = 1; i < tree.by_name_.size(); ++i) {
    if (tree.nodes_[tree.by_name_[i]].name == tree.nodes_[tree.by_name_[i - 1]].name) {
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

std::optional<int> OrgTree::FindNext(const std::string& name, size_t& cursor) const {
  // The next rank first (names in order), then the same one (a repeat).
  for (const size_t at : {cursor + 1, cursor}) {
    if (at < by_name_.size() && nodes_[by_name_[at]].name == name) {
      cursor = at;
      return by_name_[at];
    }
  }
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [&](int n, const std::string& v) { return nodes_[n].name < v; });
  if (it == by_name_.end() || nodes_[*it].name != name) return std::nullopt;
  cursor = static_cast<size_t>(it - by_name_.begin());
  return *it;
}

std::optional<int> OrgTree::Find(const std::string& name) const {
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [&](int n, const std::string& v) { return nodes_[n].name < v; });
  if (it == by_name_.end() || nodes_[*it].name != name) return std::nullopt;
  return *it;
}

}  // namespace fleetcap::allocation

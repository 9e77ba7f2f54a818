// Hundreds of seeded random allocation problems (org trees of depth 1 to 4,
// mixed weights, guarantees, borrowing and lending limits, capacity from
// scarce to ample, guarantees sometimes above it): the engine's invariants,
// and its unrounded result against the hierarchical lexicographic max-min
// optimum computed independently by linear programs (GLPK, exact simplex).

#include <glpk.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "absl/strings/str_cat.h"
#include "optimizer/allocation/allocation_engine.h"
#include "optimizer/allocation/bound_by.h"
#include "optimizer/allocation/whole_devices.h"

namespace fleetcap::allocation {
namespace {

struct Instance {
  std::vector<OrgNode> tree;
  FlavorDemand flavor;
};

// Quantities scale with `unit` (1000: up to 20 devices of demand a team) and
// weights go up to `max_weight`.
Instance RandomInstance(uint64_t seed, int64_t unit = 1000, int64_t max_weight = 5) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  Instance in;
  const int depth = static_cast<int>(uniform(1, 4));
  // Level by level: every node above the last level has 1-4 children, or
  // (one time in four, below the roots) none, ending its branch early.
  std::vector<std::pair<std::string, int>> frontier;  // name, level
  const int roots = static_cast<int>(uniform(1, 3));
  for (int r = 0; r < roots; ++r) frontier.push_back({absl::StrCat("t", r), 1});
  std::vector<std::string> leaves;
  for (size_t i = 0; i < frontier.size(); ++i) {
    const auto [name, level] = frontier[i];
    const std::string parent = name.find('.') == std::string::npos ? "" : name.substr(0, name.rfind('.'));
    in.tree.push_back({name, parent, uniform(1, max_weight)});
    const bool ends = level == depth || (level > 1 && uniform(0, 3) == 0);
    if (ends) {
      leaves.push_back(name);
      continue;
    }
    const int children = static_cast<int>(uniform(1, 4));
    for (int c = 0; c < children; ++c) frontier.push_back({absl::StrCat(name, ".", c), level + 1});
  }
  int64_t demand_sum = 0, guarantee_sum = 0;
  for (const std::string& leaf : leaves) {
    TeamDemand t;
    t.team = leaf;
    t.demand_milli = uniform(0, 4) == 0 ? 0 : uniform(1, 20 * unit);
    t.guarantee_milli = uniform(0, 9) < 6 ? uniform(0, 8 * unit) : 0;
    if (uniform(0, 9) < 3) t.borrowing_limit_milli = uniform(0, 5 * unit);
    if (uniform(0, 9) < 3) t.lending_limit_milli = uniform(0, t.guarantee_milli);
    t.weight = uniform(1, max_weight);
    demand_sum += t.demand_milli;
    guarantee_sum += t.guarantee_milli;
    in.flavor.teams.push_back(t);
  }
  in.flavor.flavor = "gpu";
  in.flavor.capacity_milli = std::min(kMaxMilli, uniform(0, std::max<int64_t>(demand_sum, guarantee_sum) * 6 / 5));
  return in;
}

// The hierarchical lexicographic max-min optimum by linear programs, top
// down: at each interior node, with the amount that reaches it fixed, the
// children's amounts X_c (sums of their leaves' shares s_i, 0 <= s_i <=
// cap_i) are chosen by the classic sequence of LPs: maximise t subject to
// X_c >= w_c t for every child not yet fixed; then each such child whose X_c
// cannot exceed w_c t* while the others keep X >= w t* is fixed at w_c t*;
// repeat until every child is fixed (its X_c >= its level from then on). The
// leaves' sum is at most the node's amount: the objectives spend all of it
// that the children can use. GLPK's exact (rational) simplex solves each LP;
// what carries over from one LP to the next is a double, given kSlack of room.
class LexMaxMinLp {
 public:
  LexMaxMinLp(const std::vector<OrgNode>& tree, const std::map<std::string, std::pair<int64_t, int64_t>>& leaves)
      : tree_(tree) {
    for (const auto& [name, cap_weight] : leaves) {
      cap_[name] = cap_weight.first;
      weight_[name] = cap_weight.second;
    }
    for (const OrgNode& n : tree) {
      children_[n.parent].push_back(n.name);
      if (weight_.count(n.name) == 0) weight_[n.name] = n.weight;
    }
  }

  // The amount each leaf gets of `amount`.
  std::map<std::string, double> Solve(double amount) {
    std::map<std::string, double> got;
    Split("", amount, got);
    return got;
  }

 private:
  std::vector<std::string> LeavesUnder(const std::string& node) const {
    auto it = children_.find(node);
    if (it == children_.end()) return {node};
    std::vector<std::string> out;
    for (const auto& c : it->second) {
      for (auto& l : LeavesUnder(c)) out.push_back(l);
    }
    return out;
  }

  void Split(const std::string& node, double amount, std::map<std::string, double>& got) {
    auto it = children_.find(node);
    if (it == children_.end()) {
      got[node] = amount;
      return;
    }
    const std::vector<std::string>& children = it->second;
    std::map<std::string, double> fixed;
    while (fixed.size() < children.size()) {
      const double t = Optimise(node, children, amount, fixed, "", 0);
      size_t newly = 0;
      for (const auto& c : children) {
        if (fixed.count(c) > 0) continue;
        const double most = Optimise(node, children, amount, fixed, c, t);
        if (most <= weight_.at(c) * t + 100 * kSlack) {
          fixed[c] = weight_.at(c) * t;
          ++newly;
        }
      }
      EXPECT_GT(newly, 0u) << "no child of " << node << " could be fixed";
      if (newly == 0) break;
    }
    for (const auto& c : children) Split(c, fixed[c], got);
  }

  // Levels carried from one LP to the next are exact optima rounded to a
  // double: this much room (milli-devices) keeps the last bit from making the
  // next LP infeasible; it is far below the tolerance of the comparison.
  static constexpr double kSlack = 1e-9;

  // Maximises t (`target` empty) or, with t fixed at `t`, X_target.
  double Optimise(const std::string& node, const std::vector<std::string>& children, double amount,
                  const std::map<std::string, double>& fixed, const std::string& target, double t) {
    const std::vector<std::string> leaves = LeavesUnder(node);
    std::map<std::string, int> col;
    glp_prob* lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MAX);
    glp_add_cols(lp, static_cast<int>(leaves.size()) + 1);
    for (size_t i = 0; i < leaves.size(); ++i) {
      col[leaves[i]] = static_cast<int>(i) + 1;
      const double cap = static_cast<double>(cap_.at(leaves[i]));
      glp_set_col_bnds(lp, col[leaves[i]], cap > 0 ? GLP_DB : GLP_FX, 0, cap);
    }
    const int t_col = static_cast<int>(leaves.size()) + 1;
    if (target.empty()) {
      glp_set_col_bnds(lp, t_col, GLP_LO, 0, 0);
      glp_set_obj_coef(lp, t_col, 1);
    } else {
      glp_set_col_bnds(lp, t_col, GLP_FX, t - kSlack, t - kSlack);
    }
    std::vector<int> ia = {0}, ja = {0};
    std::vector<double> ar = {0};
    // Row 1: the leaves' sum is at most the node's amount (the objectives
    // spend all of it the children can use).
    glp_add_rows(lp, 1 + static_cast<int>(children.size()));
    glp_set_row_bnds(lp, 1, GLP_UP, 0, amount + kSlack);
    for (const auto& l : leaves) {
      ia.push_back(1), ja.push_back(col[l]), ar.push_back(1);
    }
    for (size_t c = 0; c < children.size(); ++c) {
      const int row = 2 + static_cast<int>(c);
      for (const auto& l : LeavesUnder(children[c])) {
        ia.push_back(row), ja.push_back(col[l]), ar.push_back(1);
        if (children[c] == target) glp_set_obj_coef(lp, col[l], 1);
      }
      auto f = fixed.find(children[c]);
      if (f != fixed.end()) {
        glp_set_row_bnds(lp, row, GLP_LO, f->second - kSlack, 0);  // X_c >= its level
      } else {
        ia.push_back(row), ja.push_back(t_col), ar.push_back(-static_cast<double>(weight_.at(children[c])));
        glp_set_row_bnds(lp, row, GLP_LO, 0, 0);  // X_c - w_c t >= 0
      }
    }
    glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.tol_bnd = 1e-10;  // the values reach 1e5 milli-devices: this keeps them well within 1e-6
    parm.tol_dj = 1e-10;
    EXPECT_EQ(glp_simplex(lp, &parm), 0);
    EXPECT_EQ(glp_get_status(lp), GLP_OPT) << "LP at node " << node << " target " << target;
    const double value = glp_get_obj_val(lp);
    glp_delete_prob(lp);
    return value;
  }

  std::vector<OrgNode> tree_;
  std::map<std::string, int64_t> cap_;
  std::map<std::string, int64_t> weight_;
  std::map<std::string, std::vector<std::string>> children_;
};

constexpr uint64_t kInstances = 300;

// Guarantees and caps hold, the sum is exactly what the division hands out
// (within C), and no capacity is idle while a team below its cap wants more.
// Counts the over-subscribed and scarce instances.
void CheckInvariants(const Instance& in, int& oversubscribed, int& scarce) {
  auto tree = OrgTree::Build(in.tree);
  ASSERT_TRUE(tree.ok()) << tree.status();
  auto a = AllocateFlavor(*tree, in.flavor);
  ASSERT_TRUE(a.ok()) << a.status();
  oversubscribed += a->oversubscribed;
  int64_t sum = 0, floors = 0, withheld = 0, wanted = 0;
  bool unmet = false;
  for (const TeamAllocation& t : a->teams) {
    const TeamDemand& d = t.input;
    const int64_t e = d.borrowing_limit_milli ? std::min(d.demand_milli, d.guarantee_milli + *d.borrowing_limit_milli)
                                              : d.demand_milli;
    const int64_t f = std::min(e, d.guarantee_milli);
    EXPECT_LE(t.recommended_milli, e) << d.team << ": above its demand or borrowing limit";
    if (a->oversubscribed) {
      EXPECT_LE(t.recommended_milli, f) << d.team << ": borrowed although guarantees exceed capacity";
    } else {
      EXPECT_GE(t.recommended_milli, f) << d.team << ": below its guarantee in use";
    }
    EXPECT_LT(std::abs(static_cast<double>(t.exact_milli) - static_cast<double>(t.recommended_milli)), 1.0) << d.team;
    unmet = unmet || t.recommended_milli < e;
    sum += t.recommended_milli;
    floors += f;
    withheld += std::max<int64_t>(0, d.guarantee_milli - d.lending_limit_milli.value_or(d.guarantee_milli) - f);
    wanted += e - f;
  }
  // Rounding hands out exactly what the unrounded division does: the
  // floors and what the pool can give, or the whole capacity when the
  // floors exceed it.
  const int64_t pool = std::max<int64_t>(0, in.flavor.capacity_milli - floors - withheld);
  EXPECT_EQ(sum, floors > in.flavor.capacity_milli ? in.flavor.capacity_milli : floors + std::min(pool, wanted));
  if (a->pool_milli > 0) {
    EXPECT_LE(sum + a->withheld_milli, in.flavor.capacity_milli);
  }
  EXPECT_LE(sum, in.flavor.capacity_milli);
  if (unmet) {
    ++scarce;
    // Someone below its cap wants more: every milli-device is in use
    // (handed out, or withheld under a lending limit).
    EXPECT_EQ(a->oversubscribed ? sum : std::min(sum + a->withheld_milli, in.flavor.capacity_milli),
              in.flavor.capacity_milli);
  }
}

TEST(AllocationProperties, GuaranteesCapsAndCapacityHoldAndNothingIsLeftIdle) {
  int oversubscribed = 0, scarce = 0;
  for (uint64_t seed = 1; seed <= kInstances; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    CheckInvariants(RandomInstance(seed), oversubscribed, scarce);
  }
  // The generator reaches the cases that matter.
  EXPECT_GT(oversubscribed, 10);
  EXPECT_GT(scarce, 100);
}

// Quantities near the engine's limit (a billion devices) and weights up to a
// million: no overflow, and the same invariants.
TEST(AllocationProperties, InvariantsHoldAtTheLimits) {
  int oversubscribed = 0, scarce = 0;
  for (uint64_t seed = 1; seed <= kInstances; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    CheckInvariants(RandomInstance(seed, kMaxMilli / 20, kMaxWeight), oversubscribed, scarce);
  }
  EXPECT_GT(scarce, 100);
}

// Whole devices (whole_devices.h) from the engine's result on the same
// instances: whole, within the capacity and what lending limits withhold,
// never more than a device above the engine's share nor below its share
// rounded down in total, the floors rounded up kept whenever they all fit,
// and the identity where the engine's shares are whole already.
TEST(AllocationProperties, WholeDevicesStayWithinCapacityAndKeepTheFloors) {
  int floors_kept = 0;
  for (uint64_t seed = 1; seed <= kInstances; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const Instance in = RandomInstance(seed);
    auto tree = OrgTree::Build(in.tree);
    ASSERT_TRUE(tree.ok()) << tree.status();
    auto a = AllocateFlavor(*tree, in.flavor);
    ASSERT_TRUE(a.ok()) << a.status();
    std::vector<WholeDeviceClaim> claims;
    int64_t handed_out = 0, withheld = 0, rounded_down = 0;
    bool already_whole = true;
    for (const TeamAllocation& t : a->teams) {
      std::optional<int64_t> ceiling;
      if (t.input.borrowing_limit_milli) ceiling = t.input.guarantee_milli + *t.input.borrowing_limit_milli;
      claims.push_back({t.recommended_milli, std::min(t.input.demand_milli, t.input.guarantee_milli), ceiling,
                        t.withheld_milli, &t.input.team});
      handed_out += t.recommended_milli;
      withheld += t.withheld_milli;
      rounded_down += t.recommended_milli / 1000 * 1000;
      already_whole = already_whole && t.recommended_milli % 1000 == 0;
    }
    const std::vector<int64_t> whole = WholeDevices(claims, in.flavor.capacity_milli);
    ASSERT_EQ(whole.size(), claims.size());
    int64_t sum = 0, floors_up = 0;
    std::vector<int64_t> floor_up(claims.size());
    for (size_t i = 0; i < claims.size(); ++i) {
      const WholeDeviceClaim& c = claims[i];
      EXPECT_EQ(whole[i] % 1000, 0) << *c.name;
      EXPECT_LE(whole[i], (c.exact_milli + 999) / 1000 * 1000) << *c.name << ": above its share rounded up";
      if (c.ceiling_milli) {
        EXPECT_LE(whole[i], *c.ceiling_milli) << *c.name << ": above g + b";
      }
      if (already_whole) {
        EXPECT_EQ(whole[i], c.exact_milli) << *c.name;
      }
      int64_t hi = (c.exact_milli + 999) / 1000;
      if (c.ceiling_milli) hi = std::min(hi, *c.ceiling_milli / 1000);
      floor_up[i] = std::min((c.floor_milli + 999) / 1000, hi) * 1000;
      floors_up += floor_up[i];
      sum += whole[i];
    }
    EXPECT_LE(sum, in.flavor.capacity_milli);
    EXPECT_LE(sum, std::max(handed_out, in.flavor.capacity_milli - withheld));
    EXPECT_GE(sum, rounded_down) << "a device lost beyond rounding";
    if (floors_up <= sum) {
      ++floors_kept;
      for (size_t i = 0; i < claims.size(); ++i) EXPECT_GE(whole[i], floor_up[i]) << *claims[i].name;
    }
  }
  EXPECT_GT(floors_kept, 100);
}

TEST(AllocationProperties, SameResultWhateverTheOrderOfTeams) {
  for (uint64_t seed = 1; seed <= kInstances; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    Instance in = RandomInstance(seed);
    auto tree = OrgTree::Build(in.tree);
    ASSERT_TRUE(tree.ok());
    auto first = AllocateFlavor(*tree, in.flavor);
    std::reverse(in.flavor.teams.begin(), in.flavor.teams.end());
    std::reverse(in.tree.begin(), in.tree.end());
    auto reversed_tree = OrgTree::Build(in.tree);
    ASSERT_TRUE(reversed_tree.ok());
    auto second = AllocateFlavor(*reversed_tree, in.flavor);
    ASSERT_TRUE(first.ok() && second.ok());
    std::map<std::string, std::pair<int64_t, std::string>> by_team;
    for (const auto& t : first->teams) by_team[t.input.team] = {t.recommended_milli, Explanation(*first, t)};
    for (const auto& t : second->teams) {
      EXPECT_EQ(by_team[t.input.team], std::make_pair(t.recommended_milli, Explanation(*second, t))) << t.input.team;
    }
  }
}

TEST(AllocationProperties, WaterFillingEqualsTheLexicographicMaxMinLp) {
  for (uint64_t seed = 1; seed <= kInstances; ++seed) {
    SCOPED_TRACE(absl::StrCat("seed ", seed));
    const Instance in = RandomInstance(seed);
    auto tree = OrgTree::Build(in.tree);
    ASSERT_TRUE(tree.ok());
    auto a = AllocateFlavor(*tree, in.flavor);
    ASSERT_TRUE(a.ok()) << a.status();
    // Step 1 restated here: what each leaf may still take, and the amount to divide.
    std::map<std::string, std::pair<int64_t, int64_t>> leaves;
    int64_t floors = 0, withheld = 0;
    for (const TeamDemand& d : in.flavor.teams) {
      const int64_t e = d.borrowing_limit_milli ? std::min(d.demand_milli, d.guarantee_milli + *d.borrowing_limit_milli)
                                                : d.demand_milli;
      const int64_t f = std::min(e, d.guarantee_milli);
      floors += f;
      withheld += std::max<int64_t>(0, d.guarantee_milli - d.lending_limit_milli.value_or(d.guarantee_milli) - f);
      leaves[d.team] = {e - f, d.weight};
    }
    const bool over = floors > in.flavor.capacity_milli;
    if (over) {
      for (const TeamDemand& d : in.flavor.teams) leaves[d.team].first = std::min(d.demand_milli, d.guarantee_milli);
    }
    const int64_t amount =
        over ? in.flavor.capacity_milli : std::max<int64_t>(0, in.flavor.capacity_milli - floors - withheld);
    const std::map<std::string, double> lp = LexMaxMinLp(in.tree, leaves).Solve(static_cast<double>(amount));
    for (const TeamAllocation& t : a->teams) {
      const double share = static_cast<double>(t.exact_milli) - (over ? 0.0 : static_cast<double>(t.floor_milli));
      EXPECT_NEAR(share, lp.at(t.input.team), 1e-6) << t.input.team;
    }
  }
}

}  // namespace
}  // namespace fleetcap::allocation

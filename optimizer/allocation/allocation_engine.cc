#include "optimizer/allocation/allocation_engine.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/allocation/bound_by.h"
#include "optimizer/allocation/rounding.h"
#include "optimizer/allocation/water_filling.h"

namespace fleetcap::allocation {
namespace {

absl::Status OutOfRange(const std::string& where, const char* field, int64_t v) {
  return absl::InvalidArgumentError(
      absl::StrCat(where, ": ", field, " ", v, " milli-devices is out of range (expected 0 to ", kMaxMilli, ")"));
}

// The team's node in the tree, or INVALID_ARGUMENT naming flavor, team and
// field. Messages are built only on failure: this runs for every team.
absl::StatusOr<int> CheckTeam(const OrgTree& tree, const std::string& flavor, const TeamDemand& t, size_t& cursor) {
  auto where = [&] { return absl::StrCat("flavor ", flavor, ", team ", t.team); };
  std::optional<int> node = tree.FindNext(t.team, cursor);
  if (!node) return absl::InvalidArgumentError(absl::StrCat(where(), ": not a team of the org tree"));
  if (!tree.IsLeaf(*node)) {
    return absl::InvalidArgumentError(
        absl::StrCat(where(), ": has teams below it (expected demand and allocation only on leaf teams)"));
  }
  if (!MilliInRange(t.demand_milli)) return OutOfRange(where(), "demand", t.demand_milli);
  if (!MilliInRange(t.guarantee_milli)) return OutOfRange(where(), "guarantee", t.guarantee_milli);
  if (t.borrowing_limit_milli && !MilliInRange(*t.borrowing_limit_milli)) {
    return OutOfRange(where(), "borrowing limit", *t.borrowing_limit_milli);
  }
  if (t.lending_limit_milli && !MilliInRange(*t.lending_limit_milli)) {
    return OutOfRange(where(), "lending limit", *t.lending_limit_milli);
  }
  if (t.weight < 1 || t.weight > kMaxWeight) {
    return absl::InvalidArgumentError(
        absl::StrCat(where(), ": weight ", t.weight, " is out of range (expected 1 to ", kMaxWeight, ")"));
  }
  return *node;
}

// Step 1 of docs/allocation.md for one team.
TeamAllocation Floors(const TeamDemand& t) {
  TeamAllocation a;
  a.input = t;
  const int64_t d = t.demand_milli, g = t.guarantee_milli;
  // g + b <= 2 * kMaxMilli: no overflow.
  a.effective_demand_milli = t.borrowing_limit_milli ? std::min(d, g + *t.borrowing_limit_milli) : d;
  a.floor_milli = std::min(a.effective_demand_milli, g);
  a.lending_limit_milli = t.lending_limit_milli ? std::min(*t.lending_limit_milli, g) : g;
  a.withheld_milli = std::max<int64_t>(0, (g - a.lending_limit_milli) - a.floor_milli);
  return a;
}

}  // namespace

absl::StatusOr<FlavorAllocation> AllocateFlavor(const OrgTree& tree, const FlavorDemand& demand) {
  if (!MilliInRange(demand.capacity_milli)) {
    return OutOfRange(absl::StrCat("flavor ", demand.flavor), "capacity", demand.capacity_milli);
  }
  if (demand.teams.size() > kMaxTeams) {
    return absl::InvalidArgumentError(
        absl::StrCat("flavor ", demand.flavor, ": ", demand.teams.size(), " teams, expected at most ", kMaxTeams));
  }
  FlavorAllocation out;
  out.flavor = demand.flavor;
  out.capacity_milli = demand.capacity_milli;
  const size_t nodes = tree.nodes().size();
  std::vector<int> node_of(demand.teams.size());
  std::vector<bool> seen(nodes, false);
  out.teams.reserve(demand.teams.size());
  size_t cursor = SIZE_MAX;  // OrgTree::FindNext: before the first name
  for (size_t i = 0; i < demand.teams.size(); ++i) {
    const TeamDemand& t = demand.teams[i];
    FLEETCAP_ASSIGN_OR_RETURN(node_of[i], CheckTeam(tree, demand.flavor, t, cursor));
    if (seen[node_of[i]]) {
      return absl::InvalidArgumentError(
          absl::StrCat("flavor ", demand.flavor, ", team ", t.team, ": appears twice (expected once per flavor)"));
    }
    seen[node_of[i]] = true;
    out.teams.push_back(Floors(t));
    out.floors_milli += out.teams.back().floor_milli;
    out.withheld_milli += out.teams.back().withheld_milli;
  }

  // Step 2: the weights of this flavor (a leaf's own, the tree's above it),
  // and what each leaf may still take: its unmet demand e - f, or, when the
  // floors alone exceed the capacity, the floors themselves.
  std::vector<int64_t> weights(nodes, 1), caps(nodes, 0);
  for (size_t n = 1; n < nodes; ++n) weights[n] = tree.nodes()[n].weight;
  out.oversubscribed = out.floors_milli > out.capacity_milli;
  int64_t amount = 0, total = 0;
  for (size_t i = 0; i < out.teams.size(); ++i) {
    const TeamAllocation& a = out.teams[i];
    weights[node_of[i]] = a.input.weight;
    caps[node_of[i]] = out.oversubscribed ? a.floor_milli : a.effective_demand_milli - a.floor_milli;
  }
  int64_t cap_sum = 0;
  for (size_t i = 0; i < out.teams.size(); ++i) cap_sum += caps[node_of[i]];
  if (out.oversubscribed) {
    amount = out.capacity_milli;
    total = out.capacity_milli;
  } else {
    out.pool_milli = std::max<int64_t>(0, out.capacity_milli - out.floors_milli - out.withheld_milli);
    amount = out.pool_milli;
    total = out.floors_milli + std::min(out.pool_milli, cap_sum);
  }
  const std::vector<long double> share = HierarchicalWaterFill(tree, static_cast<long double>(amount), caps, weights);

  // Step 3: a = f + share, rounded so that the whole milli-devices sum to
  // what was handed out exactly (an integer: the floors plus what the pool
  // could give).
  std::vector<RoundingClaim> claims(out.teams.size());
  for (size_t i = 0; i < out.teams.size(); ++i) {
    TeamAllocation& a = out.teams[i];
    const long double s = share[node_of[i]];
    a.exact_milli = out.oversubscribed ? s : static_cast<long double>(a.floor_milli) + s;
    claims[i] = {a.exact_milli, out.oversubscribed ? 0 : a.floor_milli,
                 out.oversubscribed ? a.floor_milli : a.effective_demand_milli, &a.input.team};
  }
  const std::vector<int64_t> rounded = RoundToTotal(claims, total);
  for (size_t i = 0; i < out.teams.size(); ++i) {
    out.teams[i].recommended_milli = rounded[i];
    SetBoundBy(out, out.teams[i]);
  }
  return out;
}

absl::StatusOr<std::vector<FlavorAllocation>> Allocate(const AllocationProblem& problem) {
  FLEETCAP_ASSIGN_OR_RETURN(OrgTree tree, OrgTree::Build(problem.tree));
  std::vector<FlavorAllocation> out;
  for (const FlavorDemand& f : problem.flavors) {
    FLEETCAP_ASSIGN_OR_RETURN(FlavorAllocation a, AllocateFlavor(tree, f));
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace fleetcap::allocation

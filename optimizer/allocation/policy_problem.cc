#include "optimizer/allocation/policy_problem.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"

namespace fleetcap::allocation {
namespace {

std::string Index(const char* list, size_t i) { return absl::StrCat(list, "[", i, "]"); }

}  // namespace

PolicyProblem BuildPolicyProblem(const policy::PolicyDocument& policy, const DemandDocument& demand) {
  PolicyProblem out;
  std::map<std::string, const policy::Team*> teams;
  std::set<std::string> parents;
  for (const auto& t : policy.teams) {
    teams[t.name] = &t;
    if (!t.parent.empty()) parents.insert(t.parent);
    out.problem.tree.push_back({t.name, t.parent, t.weight});
  }
  std::map<std::string, size_t> flavor_index;
  for (const auto& f : policy.flavors) {
    flavor_index[f.name] = out.problem.flavors.size();
    out.problem.flavors.push_back({f.name, f.capacity_milli, {}});
  }
  // (flavor index, team) -> the team's entry under construction.
  std::map<std::pair<size_t, std::string>, TeamDemand> entries;
  auto entry = [&](size_t flavor, const std::string& team) -> TeamDemand& {
    auto [it, inserted] = entries.try_emplace({flavor, team});
    if (inserted) {
      it->second.team = team;
      it->second.weight = teams.at(team)->weight;
    }
    return it->second;
  };
  for (size_t i = 0; i < policy.allocation.size(); ++i) {
    const policy::AllocationRule& rule = policy.allocation[i];
    if (parents.count(rule.team) > 0) {
      out.errors.policy.push_back(
          {policy::LineOf(rule, "team"), 0, Index("allocation", i) + ".team",
           absl::StrCat("team ", rule.team, " has teams below it (expected allocation rules on leaf teams only)")});
      continue;
    }
    auto flavor = flavor_index.find(rule.flavor);
    if (teams.count(rule.team) == 0 || flavor == flavor_index.end()) continue;  // the policy validation says so
    TeamDemand& e = entry(flavor->second, rule.team);
    e.guarantee_milli = rule.guarantee_milli;
    e.borrowing_limit_milli = rule.borrowing_limit_milli;
    e.lending_limit_milli = rule.lending_limit_milli;
    if (rule.field_lines.count("weight") > 0) e.weight = rule.weight;
  }
  for (size_t i = 0; i < demand.demand.size(); ++i) {
    const DeclaredDemand& d = demand.demand[i];
    const std::string field = Index("demand", i);
    auto flavor = flavor_index.find(d.flavor);
    if (teams.count(d.team) == 0) {
      out.errors.demand.push_back(
          {d.line, 0, field + ".team", absl::StrCat("unknown team \"", d.team, "\" (expected a team of the policy)")});
    } else if (parents.count(d.team) > 0) {
      out.errors.demand.push_back(
          {d.line, 0, field + ".team",
           absl::StrCat("team ", d.team, " has teams below it (expected demand of leaf teams only)")});
    }
    if (flavor == flavor_index.end()) {
      out.errors.demand.push_back(
          {d.line, 0, field + ".flavor",
           absl::StrCat("unknown flavor \"", d.flavor, "\" (expected a flavor of the policy)")});
    }
    if (teams.count(d.team) == 0 || parents.count(d.team) > 0 || flavor == flavor_index.end()) continue;
    entry(flavor->second, d.team).demand_milli = d.milli;
  }
  for (size_t i = 0; i < demand.capacity.size(); ++i) {
    const DeclaredCapacity& c = demand.capacity[i];
    auto flavor = flavor_index.find(c.flavor);
    if (flavor == flavor_index.end()) {
      out.errors.demand.push_back(
          {c.line, 0, Index("capacity", i) + ".flavor",
           absl::StrCat("unknown flavor \"", c.flavor, "\" (expected a flavor of the policy)")});
      continue;
    }
    out.problem.flavors[flavor->second].capacity_milli = c.milli;
  }
  // std::map order: by flavor index, then team name.
  for (auto& [key, team] : entries) out.problem.flavors[key.first].teams.push_back(std::move(team));
  return out;
}

}  // namespace fleetcap::allocation

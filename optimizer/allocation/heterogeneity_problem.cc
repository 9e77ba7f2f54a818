#include "optimizer/allocation/heterogeneity_problem.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "policy/text_rules.h"

namespace fleetcap::allocation {
absl::StatusOr<HeterogeneityProblem> BuildHeterogeneityProblem(const policy::PolicyDocument& policy,
                                                               const AllocationProblem& problem) {
  HeterogeneityProblem out;
  const size_t nf = problem.flavors.size();
  std::map<std::string, size_t> flavor_index;
  for (size_t f = 0; f < nf; ++f) {
    out.flavors.push_back({problem.flavors[f].flavor, problem.flavors[f].capacity_milli});
    flavor_index[problem.flavors[f].flavor] = f;
  }
  for (const policy::Throughput& t : policy.throughput) {
    std::vector<double>& row = out.throughput[t.workload_class];
    row.resize(nf, 0.0);
    auto f = flavor_index.find(t.flavor);
    if (f != flavor_index.end()) row[f->second] = static_cast<double>(t.micro) / 1e6;
  }
  std::map<std::string, const policy::Team*> teams;
  for (const policy::Team& t : policy.teams) teams[t.name] = &t;
  // Team name -> its entry, built flavor by flavor (std::map: name order).
  std::map<std::string, HeterogeneityTeam> entries;
  for (size_t f = 0; f < nf; ++f) {
    for (const TeamDemand& d : problem.flavors[f].teams) {
      auto [it, inserted] = entries.try_emplace(d.team);
      HeterogeneityTeam& e = it->second;
      if (inserted) {
        const policy::Team* team = teams.at(d.team);
        if (team->workload_class.empty()) {
          return absl::InvalidArgumentError(
              absl::StrCat("team ", d.team, ": no workload_class (expected one in the policy for heterogeneity-aware ",
                           "allocation, a class listed under throughput)"));
        }
        e.team = d.team;
        e.workload_class = team->workload_class;
        e.weight = team->weight;
        e.floor_milli.assign(nf, 0);
        e.limit_milli.assign(nf, std::nullopt);
      }
      // Each term is within kMaxMilli; AllocateHeterogeneous refuses a sum above it.
      e.demand_milli += d.demand_milli;
      e.floor_milli[f] = std::min(d.demand_milli, d.guarantee_milli);
      if (d.borrowing_limit_milli) e.limit_milli[f] = d.guarantee_milli + *d.borrowing_limit_milli;
    }
  }
  for (auto& [name, team] : entries) out.teams.push_back(std::move(team));
  return out;
}

std::vector<Recommendation> HeterogeneityRecommendations(const AllocationProblem& problem,
                                                         const HeterogeneityAllocation& allocation) {
  std::map<std::pair<std::string, std::string>, const TeamDemand*> declared;
  for (const FlavorDemand& f : problem.flavors) {
    for (const TeamDemand& d : f.teams) declared[{d.team, f.flavor}] = &d;
  }
  std::vector<Recommendation> out;
  for (const HeterogeneityShare& s : allocation.teams) {
    const bool met = s.recommended_total_milli >= s.input.demand_milli;
    for (size_t f = 0; f < allocation.flavors.size(); ++f) {
      const std::string& flavor = allocation.flavors[f].name;
      auto it = declared.find({s.input.team, flavor});
      if (it == declared.end() && s.recommended_milli[f] == 0) continue;
      Recommendation r;
      r.team = s.input.team;
      r.flavor = flavor;
      r.recommended_milli = s.recommended_milli[f];
      if (it != declared.end()) {
        const TeamDemand& d = *it->second;
        r.demand_milli = d.demand_milli;
        r.guarantee_milli = d.guarantee_milli;
        r.borrowing_limit_milli = d.borrowing_limit_milli;
        r.lending_limit_milli =
            d.lending_limit_milli ? std::min(*d.lending_limit_milli, d.guarantee_milli) : d.guarantee_milli;
      }
      const std::string throughput = absl::StrFormat("normalised throughput %.3f at weight %d (class %s)",
                                                     s.normalised_throughput, s.input.weight, s.input.workload_class);
      const std::string of = absl::StrCat(policy::FormatDevices(r.recommended_milli), " of the ",
                                          policy::FormatDevices(s.input.demand_milli), " devices it runs at once");
      if (met) {
        r.bound_by = "demand";
        r.explanation = absl::StrCat(of, ", on the flavors it runs fastest on relative to the others; ", throughput);
      } else if (s.input.limit_milli[f] && r.recommended_milli >= *s.input.limit_milli[f]) {
        r.bound_by = "borrowing_limit";
        r.explanation =
            absl::StrCat(of, ": capped on ", flavor, " at guarantee ", policy::FormatDevices(r.guarantee_milli),
                         " + borrowing limit ", policy::FormatDevices(*r.borrowing_limit_milli), "; ", throughput);
      } else {
        r.bound_by = "fair_share";
        r.explanation =
            absl::StrCat(of, ": heterogeneity-aware fair share (the least normalised throughput / ", "weight is ",
                         absl::StrFormat("%.3f", allocation.min_weighted_normalised_throughput), "); ", throughput);
      }
      out.push_back(std::move(r));
    }
  }
  std::sort(out.begin(), out.end(), [](const Recommendation& a, const Recommendation& b) {
    return std::tie(a.team, a.flavor) < std::tie(b.team, b.flavor);
  });
  return out;
}

}  // namespace fleetcap::allocation

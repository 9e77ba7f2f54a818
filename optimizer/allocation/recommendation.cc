#include "optimizer/allocation/recommendation.h"

#include <algorithm>

#include "optimizer/allocation/bound_by.h"

namespace fleetcap::allocation {

std::vector<Recommendation> Recommendations(const std::vector<FlavorAllocation>& flavors) {
  std::vector<Recommendation> out;
  for (const FlavorAllocation& f : flavors) {
    for (const TeamAllocation& t : f.teams) {
      out.push_back({t.input.team, f.flavor, t.input.demand_milli, t.input.guarantee_milli, t.recommended_milli,
                     t.input.borrowing_limit_milli, t.lending_limit_milli, t.bound_by, Explanation(f, t)});
    }
  }
  std::sort(out.begin(), out.end(), [](const Recommendation& a, const Recommendation& b) {
    return std::tie(a.team, a.flavor) < std::tie(b.team, b.flavor);
  });
  return out;
}

}  // namespace fleetcap::allocation

#include "optimizer/allocation/whole_devices.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "optimizer/allocation/rounding.h"
#include "policy/text_rules.h"

namespace fleetcap::allocation {
namespace {

int64_t DevicesDown(int64_t milli) { return milli / kMilliPerDevice; }
int64_t DevicesUp(int64_t milli) { return (milli + kMilliPerDevice - 1) / kMilliPerDevice; }

// The lower bounds of docs/allocation.md "Whole devices": the floors rounded
// up where they all fit in `devices`, else rounded down where those fit, else none.
std::vector<int64_t> LowerBounds(const std::vector<WholeDeviceClaim>& claims, const std::vector<int64_t>& upper,
                                 int64_t devices) {
  for (int64_t (*round)(int64_t) : {DevicesUp, DevicesDown}) {
    std::vector<int64_t> lower(claims.size());
    int64_t sum = 0;
    for (size_t i = 0; i < claims.size(); ++i) {
      lower[i] = std::min(round(claims[i].floor_milli), upper[i]);
      sum += lower[i];
    }
    if (sum <= devices) return lower;
  }
  return std::vector<int64_t>(claims.size(), 0);
}

WholeDeviceClaim ClaimOf(const Recommendation& r) {
  WholeDeviceClaim c;
  c.exact_milli = r.recommended_milli;
  c.floor_milli = std::min(r.demand_milli, r.guarantee_milli);
  if (r.borrowing_limit_milli) c.ceiling_milli = r.guarantee_milli + *r.borrowing_limit_milli;
  const int64_t lending = std::min(r.lending_limit_milli, r.guarantee_milli);
  c.withheld_milli = std::max<int64_t>(0, (r.guarantee_milli - lending) - c.floor_milli);
  c.name = &r.team;
  return c;
}

}  // namespace

std::vector<int64_t> WholeDevices(const std::vector<WholeDeviceClaim>& claims, int64_t capacity_milli) {
  int64_t handed_out = 0, withheld = 0;
  std::vector<int64_t> upper(claims.size());
  int64_t upper_sum = 0;
  for (size_t i = 0; i < claims.size(); ++i) {
    const WholeDeviceClaim& c = claims[i];
    handed_out += c.exact_milli;
    withheld += c.withheld_milli;
    upper[i] = DevicesUp(c.exact_milli);
    if (c.ceiling_milli) upper[i] = std::min(upper[i], DevicesDown(*c.ceiling_milli));
    upper_sum += upper[i];
  }
  const int64_t room = std::min(capacity_milli, std::max(handed_out, capacity_milli - withheld));
  const int64_t devices = std::min(DevicesDown(std::max<int64_t>(room, 0)), upper_sum);
  const std::vector<int64_t> lower = LowerBounds(claims, upper, devices);
  std::vector<RoundingClaim> rounding(claims.size());
  for (size_t i = 0; i < claims.size(); ++i) {
    rounding[i] = {static_cast<long double>(claims[i].exact_milli) / kMilliPerDevice, lower[i], upper[i],
                   claims[i].name};
  }
  std::vector<int64_t> out = RoundToTotal(rounding, devices);
  for (int64_t& d : out) d *= kMilliPerDevice;
  return out;
}

void RoundToWholeDevices(const policy::PolicyDocument& policy, const AllocationProblem& problem,
                         std::vector<Recommendation>& recommendations) {
  std::map<std::string, int64_t> capacity;
  for (const FlavorDemand& f : problem.flavors) capacity[f.flavor] = f.capacity_milli;
  for (const policy::Flavor& flavor : policy.flavors) {
    auto c = capacity.find(flavor.name);
    if (!flavor.WholeDevices() || c == capacity.end()) continue;
    std::vector<Recommendation*> rows;
    std::vector<WholeDeviceClaim> claims;
    for (Recommendation& r : recommendations) {
      if (r.flavor != flavor.name) continue;
      rows.push_back(&r);
      claims.push_back(ClaimOf(r));
    }
    const std::vector<int64_t> whole = WholeDevices(claims, c->second);
    for (size_t i = 0; i < rows.size(); ++i) {
      Recommendation& r = *rows[i];
      if (whole[i] == r.recommended_milli) continue;
      absl::StrAppend(&r.explanation, "; ", policy::FormatDevices(r.recommended_milli), " rounded to ",
                      policy::FormatDevices(whole[i]), " whole devices");
      r.recommended_milli = whole[i];
    }
  }
}

}  // namespace fleetcap::allocation

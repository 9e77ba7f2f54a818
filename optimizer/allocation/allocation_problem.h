#pragma once
// What the allocation engine divides (docs/allocation.md): per flavor a
// capacity, and per leaf team of the org tree its demand, guarantee, limits
// and weight on that flavor. Quantities are milli-devices. Pure data.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fleetcap::allocation {

// Quantities and weights the engine accepts: a billion devices and a million
// teams keep every sum of milli-devices within int64 and every product of a
// quantity and a weight sum within int128.
inline constexpr int64_t kMaxMilli = 1'000'000'000'000;
inline constexpr int64_t kMaxWeight = 1'000'000;
inline constexpr size_t kMaxTeams = 1'000'000;

// A quantity of milli-devices the engine accepts: 0..kMaxMilli.
inline constexpr bool MilliInRange(int64_t milli) { return milli >= 0 && milli <= kMaxMilli; }

// A team of the org tree (`parent` empty: a root). `weight` is its share among
// its siblings; leaves take their per-flavor weight from TeamDemand instead.
struct OrgNode {
  std::string name;
  std::string parent;
  int64_t weight = 1;
};

// One leaf team on one flavor.
struct TeamDemand {
  std::string team;
  int64_t demand_milli = 0;
  int64_t guarantee_milli = 0;
  std::optional<int64_t> borrowing_limit_milli;  // none: may borrow without limit
  std::optional<int64_t> lending_limit_milli;    // none: may lend all of its guarantee
  int64_t weight = 1;                            // the allocation rule's, else the team's
};

struct FlavorDemand {
  std::string flavor;
  int64_t capacity_milli = 0;
  std::vector<TeamDemand> teams;  // leaf teams, each at most once
};

struct AllocationProblem {
  std::vector<OrgNode> tree;  // every team, leaves included
  std::vector<FlavorDemand> flavors;
};

}  // namespace fleetcap::allocation

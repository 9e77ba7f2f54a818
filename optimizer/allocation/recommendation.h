#pragma once
// A recommendation per team and flavor: the fields of the API's
// Recommendation message (issue 13, "Output for schedulers").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "optimizer/allocation/allocation_engine.h"

namespace fleetcap::allocation {

struct Recommendation {
  std::string team;
  std::string flavor;
  int64_t demand_milli = 0;
  int64_t guarantee_milli = 0;
  int64_t recommended_milli = 0;
  std::optional<int64_t> borrowing_limit_milli;  // none: unlimited
  int64_t lending_limit_milli = 0;               // the policy's, else the whole guarantee
  std::string bound_by;
  std::string explanation;
  // The measured demand before the policy's headroom (demand_milli is what
  // the engine was given); none: nothing measured (an offline solve).
  std::optional<int64_t> measured_demand_milli = std::nullopt;
};

// Every team of every flavor, ordered by team then flavor (bytes).
std::vector<Recommendation> Recommendations(const std::vector<FlavorAllocation>& flavors);

}  // namespace fleetcap::allocation

#pragma once
// One recommendation as the scheduler exports read it: the fields of the
// API's Recommendation message (issue 13) that a quota needs. Plain data, so
// the formats do not depend on where the set came from (the API, or the
// offline solver's output).

#include <cstdint>
#include <optional>
#include <string>

namespace fleetcap::exports {

struct RecommendationRow {
  std::string team;
  std::string flavor;
  int64_t demand_milli = 0;
  int64_t guarantee_milli = 0;
  int64_t recommended_milli = 0;
  std::optional<int64_t> borrowing_limit_milli;  // none: may borrow without limit
  int64_t lending_limit_milli = 0;               // the policy's, else the whole guarantee
  std::string bound_by;
};

}  // namespace fleetcap::exports

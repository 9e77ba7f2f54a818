#pragma once
// Effective-dated prices of one model in one cluster, as one timeline: a
// price for that cluster wins over the price for every cluster where both
// are in force. Times are Unix seconds.

#include <cstdint>
#include <string>
#include <vector>

#include "policy/policy_document.h"

namespace fleetcap::attribution {

inline constexpr int64_t kForever = INT64_MAX / 4;

struct PricePeriod {
  int64_t from = 0;
  int64_t to = kForever;
  int64_t micro_per_device_hour = 0;
};

// The periods in force for `model` in `cluster`, in time order, not
// overlapping; time in no period has no price.
std::vector<PricePeriod> PriceTimeline(const std::vector<policy::Price>& prices, const std::string& model,
                                       const std::string& cluster);

// Unix seconds of `t`, whole seconds toward the past; kForever for the infinite future.
int64_t ToSeconds(absl::Time t);

}  // namespace fleetcap::attribution

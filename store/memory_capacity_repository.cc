#include "store/memory_capacity_repository.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "common/status_macros.h"

namespace fleetcap::store {

absl::StatusOr<std::vector<CapacityPoint>> MemoryCapacityRepository::DeviceTime(const CapacityFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckCapacityFilter(filter));
  std::map<std::tuple<std::string, std::string, absl::Time>, int64_t> sums;
  for (const Device& d : devices_) {
    if (!filter.cluster.empty() && d.cluster != filter.cluster) continue;
    if (!filter.model.empty() && d.model != filter.model) continue;
    const absl::Time from = std::max(d.from, filter.start);
    const absl::Time to = std::min(d.to.value_or(filter.end), filter.end);
    for (absl::Time b = filter.start; b < filter.end; b += filter.width) {
      const absl::Time f = std::max(from, b), t = std::min(to, b + filter.width);
      if (f < t) sums[{d.cluster, d.model, b}] += absl::ToInt64Milliseconds(t - f);
    }
  }
  std::vector<CapacityPoint> out;
  for (const auto& [key, milli] : sums) {
    if (milli > 0) out.push_back({std::get<2>(key), std::get<0>(key), std::get<1>(key), milli});
  }
  return out;
}

}  // namespace fleetcap::store

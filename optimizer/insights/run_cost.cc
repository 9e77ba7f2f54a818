#include "optimizer/insights/run_cost.h"

#include <algorithm>
#include <numeric>

namespace fleetcap::insights {

CostNumerator PriceBook::Cost(const std::string& cluster, const std::string& model, int64_t milli, int64_t from,
                              int64_t to) {
  auto key = std::make_pair(cluster, model);
  auto it = timelines_.find(key);
  if (it == timelines_.end()) it = timelines_.emplace(key, attribution::PriceTimeline(prices_, model, cluster)).first;
  CostNumerator total = 0;
  for (const attribution::PricePeriod& p : it->second) {
    const int64_t lo = std::max(from, p.from), hi = std::min(to, p.to);
    if (lo < hi) total += static_cast<CostNumerator>(milli) * (hi - lo) * p.micro_per_device_hour;
  }
  return total;
}

std::vector<int64_t> RoundRunOnce(const std::vector<CostNumerator>& hours) {
  const CostNumerator exact = std::accumulate(hours.begin(), hours.end(), CostNumerator{0});
  const CostNumerator total = (exact + kMilliSecondsPerDeviceHour / 2) / kMilliSecondsPerDeviceHour;
  std::vector<int64_t> out(hours.size());
  CostNumerator given = 0;
  for (size_t i = 0; i < hours.size(); ++i) {
    out[i] = static_cast<int64_t>(hours[i] / kMilliSecondsPerDeviceHour);
    given += out[i];
  }
  std::vector<size_t> order(hours.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return hours[a] % kMilliSecondsPerDeviceHour > hours[b] % kMilliSecondsPerDeviceHour;
  });
  for (size_t i = 0; given < total && i < order.size(); ++i, ++given) ++out[order[i]];
  return out;
}

}  // namespace fleetcap::insights

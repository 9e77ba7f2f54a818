#include "optimizer/attribution/price_schedule.h"

#include <algorithm>
#include <optional>

namespace fleetcap::attribution {
namespace {

std::optional<int64_t> PriceAt(const std::vector<PricePeriod>& periods, int64_t t) {
  for (const PricePeriod& p : periods) {
    if (p.from <= t && t < p.to) return p.micro_per_device_hour;
  }
  return std::nullopt;
}

}  // namespace

int64_t ToSeconds(absl::Time t) {
  if (t == absl::InfiniteFuture()) return kForever;
  if (t == absl::InfinitePast()) return -kForever;
  return std::clamp<int64_t>(absl::ToUnixSeconds(t), -kForever, kForever);
}

std::vector<PricePeriod> PriceTimeline(const std::vector<policy::Price>& prices, const std::string& model,
                                       const std::string& cluster) {
  std::vector<PricePeriod> own;
  std::vector<PricePeriod> every;
  std::vector<int64_t> bounds;
  for (const policy::Price& p : prices) {
    if (p.model != model || (!p.cluster.empty() && p.cluster != cluster)) continue;
    PricePeriod period{ToSeconds(p.from), p.to ? ToSeconds(*p.to) : kForever, p.micro_per_device_hour};
    if (period.from >= period.to) continue;
    (p.cluster.empty() ? every : own).push_back(period);
    bounds.push_back(period.from);
    bounds.push_back(period.to);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  std::vector<PricePeriod> out;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    std::optional<int64_t> price = PriceAt(own, bounds[i]);
    if (!price) price = PriceAt(every, bounds[i]);
    if (!price) continue;
    if (!out.empty() && out.back().to == bounds[i] && out.back().micro_per_device_hour == *price) {
      out.back().to = bounds[i + 1];
    } else {
      out.push_back({bounds[i], bounds[i + 1], *price});
    }
  }
  return out;
}

}  // namespace fleetcap::attribution

#pragma once
// For tests: the fleet cost of each (cluster, model, hour) worked out the
// slow, obvious way, independently of the engine: every second of every
// device in service at the price in force for it, summed, rounded once.

#include <map>
#include <string>
#include <tuple>

#include "optimizer/attribution/apportion.h"
#include "optimizer/attribution/attribution_facts.h"

namespace fleetcap::attribution {

using CellKey = std::tuple<absl::Time, std::string, std::string>;  // hour, cluster, model

inline std::map<CellKey, int64_t> SecondBySecondFleetCost(const AttributionInput& in) {
  std::map<CellKey, Int128> micro_seconds;
  for (absl::Time s = in.start; s < in.end; s += absl::Seconds(1)) {
    const absl::Time hour = in.start + absl::Hours((s - in.start) / absl::Hours(1));
    for (const DeviceInService& d : in.devices) {
      if (s < d.from || s >= d.to) continue;
      int64_t price = 0;
      bool own = false;
      for (const policy::Price& p : in.prices) {
        if (p.model != d.model || s < p.from || (p.to && s >= *p.to)) continue;
        if (p.cluster == d.cluster) {
          price = p.micro_per_device_hour;
          own = true;
        } else if (p.cluster.empty() && !own) {
          price = p.micro_per_device_hour;
        }
      }
      micro_seconds[{hour, d.cluster, d.model}] += price;
    }
  }
  std::map<CellKey, int64_t> out;
  for (const auto& [key, sum] : micro_seconds) out[key] = static_cast<int64_t>((sum + 1800) / 3600);
  return out;
}

}  // namespace fleetcap::attribution

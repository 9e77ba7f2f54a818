#include "store/memory_capacity_repository.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "common/status_macros.h"

namespace fleetcap::store {

absl::StatusOr<std::vector<CapacityPoint>> MemoryCapacityRepository::DeviceTime(const CapacityFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckCapacityFilter(filter));
  std::map<std::tuple<std::string, std::string, absl::Time>, int64_t> sums;
  for (const auto& [cluster, d] : devices_) {
    if (!filter.cluster.empty() && cluster != filter.cluster) continue;
    if (!filter.model.empty() && d.model != filter.model) continue;
    const absl::Time from = std::max(d.in_service_from, filter.start);
    const absl::Time to = std::min(d.in_service_to.value_or(filter.end), filter.end);
    for (absl::Time b = filter.start; b < filter.end; b += filter.width) {
      const absl::Time f = std::max(from, b), t = std::min(to, b + filter.width);
      if (f < t) sums[{cluster, d.model, b}] += absl::ToInt64Milliseconds(t - f);
    }
  }
  std::vector<CapacityPoint> out;
  for (const auto& [key, milli] : sums) {
    if (milli > 0) out.push_back({std::get<2>(key), std::get<0>(key), std::get<1>(key), milli});
  }
  return out;
}

int64_t MemoryCapacityRepository::HeldOf(const std::string& cluster, const std::string& device, absl::Time from,
                                         absl::Time to) const {
  int64_t held = 0;
  for (const auto& [c, h] : holds_) {
    if (c != cluster || h.device_id != device) continue;
    const absl::Time f = std::max(h.from, from), t = std::min(h.to.value_or(absl::InfiniteFuture()), to);
    if (f < t) held += HeldMilliSeconds(h.milli, f, t);
  }
  return held;
}

absl::StatusOr<std::vector<AssetTime>> MemoryCapacityRepository::AssetTimes(const AssetFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckAssetWindow(filter.start, filter.end));
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, AssetTime> groups;
  std::map<Key, std::set<std::pair<std::string, std::string>>> devices;
  for (const auto& [cluster, d] : devices_) {
    if ((!filter.cluster.empty() && cluster != filter.cluster) || (!filter.model.empty() && d.model != filter.model) ||
        (!filter.node.empty() && d.node != filter.node)) {
      continue;
    }
    const absl::Time from = std::max(d.in_service_from, filter.start);
    const absl::Time to = std::min(d.in_service_to.value_or(absl::InfiniteFuture()), filter.end);
    if (from >= to) continue;
    const bool by_cluster = filter.level != AssetLevel::kModel;
    const bool by_node = filter.level == AssetLevel::kNode || filter.level == AssetLevel::kDevice;
    const bool by_device = filter.level == AssetLevel::kDevice;
    const Key key{filter.level == AssetLevel::kCluster ? "" : d.model, by_cluster ? cluster : "", by_node ? d.node : "",
                  by_device ? d.device_id : ""};
    AssetTime& group = groups[key];
    std::tie(group.model, group.cluster, group.node, group.device) = key;
    const int64_t capacity = absl::ToUnixMillis(to) - absl::ToUnixMillis(from);
    const int64_t held = HeldOf(cluster, d.device_id, from, to);
    group.capacity_milli_seconds += capacity;
    group.held_milli_seconds += held;
    group.idle_milli_seconds += std::max<int64_t>(0, capacity - held);
    devices[key].insert({cluster, d.device_id});
  }
  std::vector<AssetTime> out;
  for (auto& [key, group] : groups) {
    group.devices = static_cast<int64_t>(devices[key].size());
    out.push_back(std::move(group));
  }
  return out;
}

const Pod* MemoryCapacityRepository::PodOf(const std::string& cluster, const std::string& uid) const {
  for (const auto& [c, p] : pods_) {
    if (c == cluster && p.uid == uid) return &p;
  }
  return nullptr;
}

absl::StatusOr<std::vector<DeviceHoldTime>> MemoryCapacityRepository::DeviceHolds(const std::string& cluster,
                                                                                  const std::string& device,
                                                                                  absl::Time start, absl::Time end,
                                                                                  int max_holds) const {
  FLEETCAP_RETURN_IF_ERROR(CheckAssetWindow(start, end));
  std::vector<DeviceHoldTime> out;
  for (const auto& [c, h] : holds_) {
    if (c != cluster || h.device_id != device) continue;
    DeviceHoldTime hold;
    hold.pod_uid = h.pod_uid;
    hold.milli = h.milli;
    hold.from = std::max(h.from, start);
    hold.to = std::min(h.to.value_or(absl::InfiniteFuture()), end);
    if (hold.from >= hold.to) continue;
    if (const Pod* pod = PodOf(cluster, h.pod_uid)) {
      hold.pod = pod->name;
      hold.namespace_name = pod->namespace_name;
      hold.workload_kind = pod->workload_kind;
      hold.workload_name = pod->workload_name;
      hold.team_label = pod->team;
    }
    out.push_back(std::move(hold));
  }
  std::sort(out.begin(), out.end(), [](const DeviceHoldTime& a, const DeviceHoldTime& b) {
    return std::tie(a.from, a.pod_uid) < std::tie(b.from, b.pod_uid);
  });
  if (static_cast<int>(out.size()) > max_holds) out.resize(std::max(max_holds, 0));
  return out;
}

}  // namespace fleetcap::store

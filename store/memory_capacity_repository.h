#pragma once
// CapacityReadRepository in memory, for unit tests.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/capacity_repository.h"
#include "store/inventory.h"

namespace fleetcap::store {

// One device interval per call, as `devices`
// holds them (`to` nullopt: still in service); holds and pods as `holds`
// and `pods` do. Not thread-safe.
class MemoryCapacityRepository : public CapacityReadRepository {
 public:
  // A device interval with no id or node: counted by DeviceTime and AssetTimes alike.
  void AddDevice(std::string cluster, std::string model, absl::Time from, std::optional<absl::Time> to = std::nullopt) {
    Device device;
    device.model = std::move(model);
    device.in_service_from = from;
    device.in_service_to = to;
    AddDevice(std::move(cluster), std::move(device));
  }
  void AddDevice(std::string cluster, Device device) { devices_.push_back({std::move(cluster), std::move(device)}); }
  void AddHold(std::string cluster, Hold hold) { holds_.push_back({std::move(cluster), std::move(hold)}); }
  void AddPod(std::string cluster, Pod pod) { pods_.push_back({std::move(cluster), std::move(pod)}); }

  absl::StatusOr<std::vector<CapacityPoint>> DeviceTime(const CapacityFilter& filter) const override;
  absl::StatusOr<std::vector<AssetTime>> AssetTimes(const AssetFilter& filter) const override;
  absl::StatusOr<std::vector<DeviceHoldTime>> DeviceHolds(const std::string& cluster, const std::string& device,
                                                          absl::Time start, absl::Time end,
                                                          int max_holds = kMaxDeviceHolds) const override;

 private:
  template <typename T>
  struct InCluster {
    std::string cluster;
    T fact;
  };
  // The device time the holds of `device` took of [from, to).
  int64_t HeldOf(const std::string& cluster, const std::string& device, absl::Time from, absl::Time to) const;
  const Pod* PodOf(const std::string& cluster, const std::string& uid) const;

  std::vector<InCluster<Device>> devices_;
  std::vector<InCluster<Hold>> holds_;
  std::vector<InCluster<Pod>> pods_;
};

}  // namespace fleetcap::store

#pragma once
// CapacityReadRepository in memory, for unit tests.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/capacity_repository.h"

namespace fleetcap::store {

// One device interval per call, as `devices`
// holds them (`to` nullopt: still in service). Not thread-safe.
class MemoryCapacityRepository : public CapacityReadRepository {
 public:
  void AddDevice(std::string cluster, std::string model, absl::Time from, std::optional<absl::Time> to = std::nullopt) {
    devices_.push_back({std::move(cluster), std::move(model), from, to});
  }

  absl::StatusOr<std::vector<CapacityPoint>> DeviceTime(const CapacityFilter& filter) const override;

 private:
  struct Device {
    std::string cluster, model;
    absl::Time from;
    std::optional<absl::Time> to;
  };
  std::vector<Device> devices_;
};

}  // namespace fleetcap::store

#pragma once
// CapacityReadRepository on PostgreSQL: device time per bucket from the
// service intervals in `devices` (migration 0001).

#include <string>
#include <vector>

#include "common/pg_pool.h"
#include "store/capacity_repository.h"

namespace fleetcap::store {

class PgCapacityRepository : public CapacityReadRepository {
 public:
  // `pool` must outlive the repository.
  explicit PgCapacityRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<std::vector<CapacityPoint>> DeviceTime(const CapacityFilter& filter) const override;
  absl::StatusOr<std::vector<AssetTime>> AssetTimes(const AssetFilter& filter) const override;
  absl::StatusOr<std::vector<DeviceHoldTime>> DeviceHolds(const std::string& cluster, const std::string& device,
                                                          absl::Time start, absl::Time end,
                                                          int max_holds = kMaxDeviceHolds) const override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

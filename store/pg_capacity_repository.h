#pragma once
// CapacityReadRepository on PostgreSQL: device time per bucket from the
// service intervals in `devices` (migration 0001).

#include "common/pg_pool.h"
#include "store/capacity_repository.h"

namespace fleetcap::store {

class PgCapacityRepository : public CapacityReadRepository {
 public:
  // `pool` must outlive the repository.
  explicit PgCapacityRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<std::vector<CapacityPoint>> DeviceTime(const CapacityFilter& filter) const override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

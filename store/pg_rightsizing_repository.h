#pragma once
// RightsizingRepository on PostgreSQL (insight_rightsizing_runs and
// insight_rightsizing, migration 0040).

#include "common/pg_pool.h"
#include "store/rightsizing_repository.h"

namespace fleetcap::store {

class PgRightsizingRepository : public RightsizingRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgRightsizingRepository(PgPool* pool) : pool_(pool) {}

  absl::Status Replace(const RightsizingRun& run) override;
  absl::StatusOr<std::vector<RightsizingRun>> Latest(const RightsizingFilter& filter) const override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

#pragma once
// OptimizerStateRepository on PostgreSQL (table optimizer_state, one row).

#include "common/pg_pool.h"
#include "store/optimizer_state_repository.h"

namespace fleetcap::store {

class PgOptimizerStateRepository : public OptimizerStateRepository {
 public:
  // `pool` must outlive the repository.
  explicit PgOptimizerStateRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<int32_t> LastPolicyVersion() override;
  absl::Status SeenPolicyVersion(int32_t version) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

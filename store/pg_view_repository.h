#pragma once
// ViewRepository on PostgreSQL (saved_views, migration 0038).

#include "common/pg_pool.h"
#include "store/view_repository.h"

namespace fleetcap::store {

class PgViewRepository : public ViewRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgViewRepository(PgPool* pool) : pool_(pool) {}

  absl::Status Save(const SavedView& view) override;
  absl::StatusOr<std::vector<SavedView>> List(const std::string& owner) override;
  absl::Status Remove(const std::string& owner, const std::string& name) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

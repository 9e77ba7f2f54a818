#pragma once
// ScenarioRepository on PostgreSQL (scenarios, migration 0022).

#include "common/pg_pool.h"
#include "store/scenario_repository.h"

namespace fleetcap::store {

class PgScenarioRepository : public ScenarioRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgScenarioRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<int64_t> Save(const ScenarioDraft& draft) override;
  absl::StatusOr<std::vector<ScenarioSummary>> List(int64_t before_id, int64_t limit) override;
  absl::StatusOr<ScenarioRecord> Get(int64_t scenario_id) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

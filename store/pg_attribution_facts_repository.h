#pragma once
// AttributionFactsRepository on PostgreSQL: three range queries over one
// snapshot (devices by devices_in_service, holds joined to their pods by
// holds_by_end, pods' usage_minute rows of the window's partitions only).

#include "common/pg_pool.h"
#include "store/attribution_facts_repository.h"

namespace fleetcap::store {

class PgAttributionFactsRepository : public AttributionFactsRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgAttributionFactsRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<AttributionFactsRecord> Facts(const std::string& cluster, absl::Time start,
                                               absl::Time end) const override;
  absl::StatusOr<std::vector<ClusterHistoryRecord>> Clusters() const override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

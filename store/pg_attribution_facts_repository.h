#pragma once
// AttributionFactsRepository on PostgreSQL: three range queries over one
// snapshot (devices by devices_in_service, holds joined to their pods by
// holds_by_end, the pods' usage_hourly rows of the window's hours). Usage is
// what PgUsageRollupRepository::RollUp rolled up last, so the optimizer rolls
// the window up first.

#include "common/pg_pool.h"
#include "store/attribution_facts_repository.h"

namespace fleetcap::store {

class PgAttributionFactsRepository : public AttributionFactsRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgAttributionFactsRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<AttributionFactsRecord> Facts(const std::string& cluster, absl::Time start,
                                               absl::Time end) const override;
  absl::StatusOr<AttributionFactsRecord> HoldFacts(const std::string& cluster, absl::Time start,
                                                   absl::Time end) const override;
  absl::StatusOr<std::vector<ClusterHistoryRecord>> Clusters() const override;

 private:
  // Facts, with the usage when `with_usage`.
  absl::StatusOr<AttributionFactsRecord> Read(const std::string& cluster, absl::Time start, absl::Time end,
                                              bool with_usage) const;

  PgPool* pool_;
};

}  // namespace fleetcap::store

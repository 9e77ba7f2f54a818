#pragma once
// AttributionFactsRepository over the in-memory inventory and usage rollup
// repositories, for unit tests: the same contract as the PostgreSQL one
// (store/attribution_facts_contract.h).

#include "store/attribution_facts_repository.h"
#include "store/memory_live_inventory_repository.h"
#include "store/memory_usage_rollup_repository.h"

namespace fleetcap::store {

class MemoryAttributionFactsRepository : public AttributionFactsRepository {
 public:
  // Both must outlive this repository. Usage is what `rollups` rolled up last.
  MemoryAttributionFactsRepository(const MemoryLiveInventoryRepository* inventory,
                                   const MemoryUsageRollupRepository* rollups)
      : inventory_(inventory), rollups_(rollups) {}

  absl::StatusOr<AttributionFactsRecord> Facts(const std::string& cluster, absl::Time start,
                                               absl::Time end) const override;
  absl::StatusOr<AttributionFactsRecord> HoldFacts(const std::string& cluster, absl::Time start,
                                                   absl::Time end) const override;
  absl::StatusOr<std::vector<ClusterHistoryRecord>> Clusters() const override;

 private:
  const MemoryLiveInventoryRepository* const inventory_;
  const MemoryUsageRollupRepository* const rollups_;
};

}  // namespace fleetcap::store

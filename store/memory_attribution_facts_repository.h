#pragma once
// AttributionFactsRepository over the in-memory inventory and usage
// repositories, for unit tests: the same contract as the PostgreSQL one
// (store/attribution_facts_contract.h).

#include "store/attribution_facts_repository.h"
#include "store/memory_live_inventory_repository.h"
#include "store/memory_usage_repository.h"

namespace fleetcap::store {

class MemoryAttributionFactsRepository : public AttributionFactsRepository {
 public:
  // Both must outlive this repository.
  MemoryAttributionFactsRepository(const MemoryLiveInventoryRepository* inventory, const MemoryUsageRepository* usage)
      : inventory_(inventory), usage_(usage) {}

  absl::StatusOr<AttributionFactsRecord> Facts(const std::string& cluster, absl::Time start,
                                               absl::Time end) const override;
  absl::StatusOr<std::vector<ClusterHistoryRecord>> Clusters() const override;

 private:
  const MemoryLiveInventoryRepository* const inventory_;
  const MemoryUsageRepository* const usage_;
};

}  // namespace fleetcap::store

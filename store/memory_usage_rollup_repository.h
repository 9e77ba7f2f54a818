#pragma once
// UsageRollupRepository in memory, for unit tests: RollUp copies the pod
// readings of every hour overlapping the window from a MemoryUsageRepository,
// and MemoryAttributionFactsRepository reads usage from here, so minutes
// written after a rollup are seen only after the next one, as on PostgreSQL.
// It rolls every hour of the window again (no staleness to track: the result
// is the same).

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "store/attribution_facts_repository.h"
#include "store/memory_usage_repository.h"
#include "store/usage_rollup_repository.h"

namespace fleetcap::store {

class MemoryUsageRollupRepository : public UsageRollupRepository {
 public:
  // `usage` must outlive this repository.
  explicit MemoryUsageRollupRepository(const MemoryUsageRepository* usage) : usage_(usage) {}

  absl::Status RollUp(const std::string& cluster, absl::Time start, absl::Time end) override;

  // The rolled-up readings of `cluster` in [start, end), ordered by (device, pod_uid, minute).
  std::vector<UsedMinuteRecord> Usage(const std::string& cluster, absl::Time start, absl::Time end) const;

  // Every window RollUp was asked for, (cluster, start, end) in order: what
  // a test of the caller checks its batches with.
  std::vector<std::tuple<std::string, absl::Time, absl::Time>> RollUpCalls() const;

 private:
  const MemoryUsageRepository* const usage_;
  mutable std::mutex mu_;
  std::map<std::string, std::map<absl::Time, std::vector<UsedMinuteRecord>>> hours_;  // by cluster, hour
  std::vector<std::tuple<std::string, absl::Time, absl::Time>> calls_;
};

}  // namespace fleetcap::store

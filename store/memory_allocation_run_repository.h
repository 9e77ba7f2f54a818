#pragma once
// AllocationRunRepository in memory, for unit tests.

#include <cstdint>
#include <optional>
#include <vector>

#include "store/allocation_run_repository.h"

namespace fleetcap::store {

// Not thread-safe.
class MemoryAllocationRunRepository : public AllocationRunRepository {
 public:
  absl::StatusOr<int64_t> StoreRun(const AllocationRunDraft& run) override;
  absl::StatusOr<std::optional<int64_t>> LatestRunId() override;
  absl::StatusOr<std::optional<AllocationRunRecord>> LatestRun() override;
  absl::StatusOr<std::optional<AllocationRunRecord>> RunBefore(int64_t run_id) override;

 private:
  std::vector<AllocationRunRecord> runs_;
};

}  // namespace fleetcap::store

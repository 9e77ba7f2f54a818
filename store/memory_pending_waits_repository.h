#pragma once
// PendingWaitsRepository in memory, for unit tests: the waits it is given,
// read as on PostgreSQL.

#include <cstdint>
#include <vector>

#include "store/pending_waits_repository.h"

namespace fleetcap::store {

// Not thread-safe.
class MemoryPendingWaitsRepository : public PendingWaitsRepository {
 public:
  void Add(PendingWaitRecord wait) { waits_.push_back(std::move(wait)); }
  absl::StatusOr<std::vector<PendingWaitRecord>> Waits(absl::Time start, absl::Time end, int64_t limit) override;

 private:
  std::vector<PendingWaitRecord> waits_;
};

}  // namespace fleetcap::store

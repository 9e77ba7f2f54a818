#pragma once
// DemandHistoryRepository in memory, for unit tests.

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "store/demand_history_repository.h"

namespace fleetcap::store {

// Rows are added as the store would hold them.
// Not thread-safe.
class MemoryDemandHistoryRepository : public DemandHistoryRepository {
 public:
  void AddHeld(HeldHourRecord record) { held_.push_back(std::move(record)); }
  // `pending_to`: when the wait ended; `deleted_at`: when the pod was deleted.
  void AddPending(PendingPodRecord record, std::optional<absl::Time> pending_to = std::nullopt,
                  std::optional<absl::Time> deleted_at = std::nullopt) {
    pending_.push_back({std::move(record), pending_to, deleted_at});
  }

  absl::StatusOr<std::vector<HeldHourRecord>> HeldHours(absl::Time start, absl::Time end) override;
  absl::StatusOr<std::vector<PendingPodRecord>> PendingAt(absl::Time at, int64_t limit) override;

 private:
  struct Pending {
    PendingPodRecord record;
    std::optional<absl::Time> to;
    std::optional<absl::Time> deleted_at;
  };
  std::vector<HeldHourRecord> held_;
  std::vector<Pending> pending_;
};

}  // namespace fleetcap::store

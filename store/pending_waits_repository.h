#pragma once
// Waits for accelerators over a window (pending_demand, migration 0002):
// the history of unmet demand the forecasts read, where
// DemandHistoryRepository::PendingAt gives only the waits of one instant.
// Each wait carries the pod's team evidence; store/ decides no team.

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "store/demand_history_repository.h"

namespace fleetcap::store {

// One wait: from pod.pending_from until `until` (the earlier of the wait's
// end and the pod's deletion), or still going on (none).
struct PendingWaitRecord {
  PendingPodRecord pod;
  std::optional<absl::Time> until;

  bool operator==(const PendingWaitRecord& o) const { return pod == o.pod && until == o.until; }
};

class PendingWaitsRepository {
 public:
  virtual ~PendingWaitsRepository() = default;

  // The waits overlapping [start, end), oldest first (ties by cluster and
  // pod), at most `limit` of them (a bound on what one run reads).
  virtual absl::StatusOr<std::vector<PendingWaitRecord>> Waits(absl::Time start, absl::Time end, int64_t limit) = 0;
};

}  // namespace fleetcap::store

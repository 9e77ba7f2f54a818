#include "store/memory_demand_history_repository.h"

#include <algorithm>
#include <tuple>

namespace fleetcap::store {

absl::StatusOr<std::vector<HeldHourRecord>> MemoryDemandHistoryRepository::HeldHours(absl::Time start, absl::Time end) {
  std::vector<HeldHourRecord> out;
  for (const HeldHourRecord& h : held_) {
    if (h.hour >= start && h.hour < end && h.held_milli_seconds > 0) out.push_back(h);
  }
  std::sort(out.begin(), out.end(), [](const HeldHourRecord& a, const HeldHourRecord& b) {
    return std::tie(a.cluster, a.model, a.team, a.hour) < std::tie(b.cluster, b.model, b.team, b.hour);
  });
  return out;
}

absl::StatusOr<std::vector<PendingPodRecord>> MemoryDemandHistoryRepository::PendingAt(absl::Time at, int64_t limit) {
  std::vector<PendingPodRecord> out;
  for (const Pending& p : pending_) {
    if (p.record.pending_from > at || (p.to && *p.to <= at) || (p.deleted_at && *p.deleted_at <= at)) continue;
    out.push_back(p.record);
  }
  std::sort(out.begin(), out.end(), [](const PendingPodRecord& a, const PendingPodRecord& b) {
    return std::tie(a.pending_from, a.cluster, a.pod_uid) < std::tie(b.pending_from, b.cluster, b.pod_uid);
  });
  if (limit >= 0 && out.size() > static_cast<size_t>(limit)) out.resize(static_cast<size_t>(limit));
  return out;
}

}  // namespace fleetcap::store

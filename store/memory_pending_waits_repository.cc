#include "store/memory_pending_waits_repository.h"

#include <algorithm>
#include <tuple>

namespace fleetcap::store {
namespace {

bool WaitOldestFirst(const PendingWaitRecord& a, const PendingWaitRecord& b) {
  return std::tie(a.pod.pending_from, a.pod.cluster, a.pod.pod_uid) <
         std::tie(b.pod.pending_from, b.pod.cluster, b.pod.pod_uid);
}

}  // namespace

absl::StatusOr<std::vector<PendingWaitRecord>> MemoryPendingWaitsRepository::Waits(absl::Time start, absl::Time end,
                                                                                   int64_t limit) {
  std::vector<PendingWaitRecord> out;
  if (limit <= 0 || !(start < end)) return out;  // as on PostgreSQL
  for (const PendingWaitRecord& w : waits_) {
    if (w.pod.pending_from >= end || (w.until && *w.until <= start)) continue;
    out.push_back(w);
  }
  std::sort(out.begin(), out.end(), WaitOldestFirst);
  if (out.size() > static_cast<size_t>(limit)) out.resize(static_cast<size_t>(limit));
  return out;
}

}  // namespace fleetcap::store

#include "store/memory_quarantine_repository.h"

namespace fleetcap::store {

absl::Status MemoryQuarantineRepository::Add(const std::vector<QuarantineRecord>& records) {
  std::lock_guard<std::mutex> lock(mu_);
  for (QuarantineRecord r : records) {
    r.id = static_cast<int64_t>(records_.size()) + 1;
    r.payload = BoundedQuarantinePayload(std::move(r.payload));
    records_.push_back(std::move(r));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<QuarantineRecord>> MemoryQuarantineRepository::List(const std::string& source,
                                                                               const std::string& cluster, int limit) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<QuarantineRecord> out;
  for (auto it = records_.rbegin(); it != records_.rend() && static_cast<int>(out.size()) < limit; ++it) {
    if (!source.empty() && it->source != source) continue;
    if (!cluster.empty() && it->cluster != cluster) continue;
    out.push_back(*it);
  }
  return out;
}

}  // namespace fleetcap::store

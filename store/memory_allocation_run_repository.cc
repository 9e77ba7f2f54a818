#include "store/memory_allocation_run_repository.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fleetcap::store {

absl::StatusOr<int64_t> MemoryAllocationRunRepository::StoreRun(const AllocationRunDraft& run) {
  if (absl::Status valid = ValidateAllocationRun(run); !valid.ok()) return valid;
  AllocationRunRecord record;
  record.run_id = runs_.empty() ? 1 : runs_.back().run_id + 1;
  record.computed_at = AllocationRunTime(run.computed_at);
  record.policy_version = run.policy_version;
  record.inputs_json = CanonicalAllocationInputs(run.inputs_json);
  record.recommendations = run.recommendations;
  std::sort(record.recommendations.begin(), record.recommendations.end(),
            [](const AllocationRecommendationRecord& a, const AllocationRecommendationRecord& b) {
              return std::tie(a.team, a.flavor) < std::tie(b.team, b.flavor);
            });
  runs_.push_back(std::move(record));
  return runs_.back().run_id;
}

absl::StatusOr<std::optional<int64_t>> MemoryAllocationRunRepository::LatestRunId() {
  if (runs_.empty()) return std::optional<int64_t>();
  return std::optional<int64_t>(runs_.back().run_id);
}

absl::StatusOr<std::optional<AllocationRunRecord>> MemoryAllocationRunRepository::LatestRun() {
  if (runs_.empty()) return std::optional<AllocationRunRecord>();
  return std::optional<AllocationRunRecord>(runs_.back());
}

absl::StatusOr<std::optional<AllocationRunRecord>> MemoryAllocationRunRepository::RunBefore(int64_t run_id) {
  // Ids grow with every run, so the runs are in id order.
  for (auto it = runs_.rbegin(); it != runs_.rend(); ++it) {
    if (it->run_id < run_id) return std::optional<AllocationRunRecord>(*it);
  }
  return std::optional<AllocationRunRecord>();
}

}  // namespace fleetcap::store

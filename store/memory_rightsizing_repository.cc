#include "store/memory_rightsizing_repository.h"

#include <algorithm>

#include "common/status_macros.h"

namespace fleetcap::store {

absl::Status MemoryRightsizingRepository::Replace(const RightsizingRun& run) {
  FLEETCAP_RETURN_IF_ERROR(ValidateRightsizingRun(run));
  RightsizingRun stored = run;
  stored.lookback_start = RightsizingTime(run.lookback_start);
  stored.lookback_end = RightsizingTime(run.lookback_end);
  stored.computed_at = RightsizingTime(run.computed_at);
  runs_[run.cluster] = std::move(stored);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<RightsizingRun>> MemoryRightsizingRepository::Latest(const RightsizingFilter& filter) const {
  std::vector<RightsizingRun> out;
  for (const auto& [cluster, run] : runs_) {
    if (!filter.cluster.empty() && filter.cluster != cluster) continue;
    RightsizingRun selected = run;
    selected.recommendations.clear();
    for (const RightsizingRecord& r : run.recommendations) {
      if (Selects(filter, cluster, r)) selected.recommendations.push_back(r);
    }
    std::sort(selected.recommendations.begin(), selected.recommendations.end(), LargestSavingFirst);
    out.push_back(std::move(selected));
  }
  return out;
}

}  // namespace fleetcap::store

#include "store/memory_forecast_repository.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"

namespace fleetcap::store {

absl::StatusOr<int64_t> MemoryForecastRepository::StoreRun(const ForecastRunDraft& run) {
  if (absl::Status valid = ValidateForecastRun(run); !valid.ok()) return valid;
  Run stored{run.header, run.series};
  stored.header.run_id = runs_.empty() ? 1 : runs_.back().header.run_id + 1;
  stored.header.computed_at = ForecastRunTime(run.header.computed_at);
  runs_.push_back(std::move(stored));
  return runs_.back().header.run_id;
}

absl::StatusOr<std::optional<ForecastRunHeader>> MemoryForecastRepository::LatestRun() {
  if (runs_.empty()) return std::optional<ForecastRunHeader>();
  return std::optional<ForecastRunHeader>(runs_.back().header);
}

absl::StatusOr<std::optional<ForecastSeriesRecord>> MemoryForecastRepository::Series(int64_t run_id,
                                                                                     const ForecastSeriesKey& key) {
  for (const Run& run : runs_) {
    if (run.header.run_id != run_id) continue;
    for (const ForecastSeriesRecord& s : run.series) {
      if (s.flavor == key.flavor && s.team == key.team && s.what == key.what) {
        return std::optional<ForecastSeriesRecord>(s);
      }
    }
  }
  return std::optional<ForecastSeriesRecord>();
}

absl::StatusOr<int64_t> MemoryForecastRepository::PruneRuns(int64_t keep) {
  if (keep < 1) return absl::InvalidArgumentError(absl::StrCat("keep: ", keep, " is below 1"));
  if (static_cast<int64_t>(runs_.size()) <= keep) return 0;
  const int64_t gone = static_cast<int64_t>(runs_.size()) - keep;
  runs_.erase(runs_.begin(), runs_.begin() + gone);
  return gone;
}

}  // namespace fleetcap::store

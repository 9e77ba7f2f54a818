#pragma once
// ForecastRepository in memory, for unit tests.

#include <cstdint>
#include <optional>
#include <vector>

#include "store/forecast_repository.h"

namespace fleetcap::store {

// Not thread-safe.
class MemoryForecastRepository : public ForecastRepository {
 public:
  absl::StatusOr<int64_t> StoreRun(const ForecastRunDraft& run) override;
  absl::StatusOr<std::optional<ForecastRunHeader>> LatestRun() override;
  absl::StatusOr<std::optional<ForecastSeriesRecord>> Series(int64_t run_id, const ForecastSeriesKey& key) override;
  absl::StatusOr<int64_t> PruneRuns(int64_t keep) override;

 private:
  struct Run {
    ForecastRunHeader header;
    std::vector<ForecastSeriesRecord> series;
  };
  std::vector<Run> runs_;
};

}  // namespace fleetcap::store

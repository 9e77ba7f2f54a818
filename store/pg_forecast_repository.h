#pragma once
// ForecastRepository on PostgreSQL (forecast_runs and forecast_series,
// migration 0021). A run is stored in one transaction, under a
// transaction-scoped advisory lock so runs commit in the order of their ids;
// its series go in with COPY, their points as bigint arrays.

#include "common/pg_pool.h"
#include "store/forecast_repository.h"

namespace fleetcap::store {

class PgForecastRepository : public ForecastRepository {
 public:
  // `pool` must outlive the repository. Thread-safe: each call leases its own connection.
  explicit PgForecastRepository(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<int64_t> StoreRun(const ForecastRunDraft& run) override;
  absl::StatusOr<std::optional<ForecastRunHeader>> LatestRun() override;
  absl::StatusOr<std::optional<ForecastSeriesRecord>> Series(int64_t run_id, const ForecastSeriesKey& key) override;
  absl::StatusOr<int64_t> PruneRuns(int64_t keep) override;

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

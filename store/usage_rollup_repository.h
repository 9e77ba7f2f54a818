#pragma once
// Hourly usage rollups: each (cluster, hour, pod, device) of usage_minute
// rolled once into one row that keeps the hour's sixty per-minute readings,
// so the optimizer reads an hour's usage without rescanning its minutes and
// keeps the engine's minute-by-minute rules exact. An hour is rolled up
// again only after minutes of it were written since (late telemetry).

#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"

namespace fleetcap::store {

class UsageRollupRepository {
 public:
  virtual ~UsageRollupRepository() = default;

  // Rolls up every hour of `cluster` in the whole hours [start, end) that
  // has minutes not rolled up yet. AttributionFactsRepository::Facts reads
  // usage from the rollups, so the optimizer calls this first.
  virtual absl::Status RollUp(const std::string& cluster, absl::Time start, absl::Time end) = 0;
};

}  // namespace fleetcap::store

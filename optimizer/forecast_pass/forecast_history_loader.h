#pragma once
// The forecast run's loader: the hourly history of every series over
// [start, end), read through the store's repository interfaces. Held device
// time per team and flavor from the chargeback's rollups, the waits for
// accelerators (each pod's team resolved with `resolver`), and each flavor's
// devices in service; every flavor of the policy gets its totals even when
// nothing was held yet.

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "optimizer/forecast_pass/forecast_series.h"
#include "policy/team_resolution.h"
#include "store/capacity_repository.h"
#include "store/demand_history_repository.h"
#include "store/pending_waits_repository.h"
#include "store/team_facts_repository.h"

namespace fleetcap::optimizer {

struct ForecastHistoryStores {
  store::DemandHistoryRepository* history = nullptr;
  store::PendingWaitsRepository* waits = nullptr;
  const store::CapacityReadRepository* capacity = nullptr;
  store::TeamFactsRepository* teams = nullptr;  // namespace evidence of waiting pods
};

// The history's window: whole hours ending at the chargeback watermark.
struct ForecastHistoryWindow {
  absl::Time start;
  absl::Time end;
  int64_t max_pending_waits = 0;  // the most waits read (the oldest)
};

absl::StatusOr<SeriesSums> LoadForecastHistory(const ForecastHistoryStores& stores,
                                               const policy::TeamResolver& resolver,
                                               const ForecastHistoryWindow& window);

}  // namespace fleetcap::optimizer

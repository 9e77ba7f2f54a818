#pragma once
// The optimizer's forecast run (docs/planning.md, "Serving forecasts"): once
// a UTC day (or every --forecast-interval, on whole multiples of it since the
// epoch), and at once when none is stored, the instance doing the fleet's
// work loads the hourly held device time per team and flavor (the
// chargeback's by-team rollups, up to the watermark), the waits for
// accelerators over the same hours (pending_demand, each pod's team resolved
// with the policy in force now, as the allocation run does) and each
// flavor's devices in service; forecasts every team x flavor series and each
// flavor's total with the engine of optimizer/forecast/, and stores the run
// with each series' model, fit and exhaustion days. Old runs beyond
// `keep_runs` are deleted after a run is stored. Loader
// (forecast_history_loader.h), pure builder (forecast_run_builder.h), writer
// (this pass). Everything goes through the store's repository interfaces and
// a Clock, so it is unit-tested in memory.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "optimizer/teams/team_directory.h"
#include "policy/policy_timeline.h"
#include "store/capacity_repository.h"
#include "store/demand_history_repository.h"
#include "store/forecast_repository.h"
#include "store/pending_waits_repository.h"
#include "store/team_facts_repository.h"

namespace fleetcap::optimizer {

struct ForecastPassOptions {
  absl::Duration interval = absl::Hours(24);    // a run per whole interval since the epoch: 24h is once per UTC day
  absl::Duration lookback = absl::Hours(2160);  // the history the models are fitted on (whole hours, up to 90 days)
  int32_t horizon_hours = 2160;                 // how far ahead (1..2160)
  int64_t keep_runs = 7;                        // stored runs kept (at least 2, so a reader never loses its run)
  int64_t max_pending_waits = 1'000'000;        // the most waits one run reads (the oldest)
};

// INVALID_ARGUMENT naming the option (as its flag) for a value out of range.
absl::Status ValidateForecastPassOptions(const ForecastPassOptions& options);

class ForecastPassStores {
 public:
  ForecastPassStores() = default;
  // Over the team directory the process shares (its policy versions, and the
  // namespace evidence of waiting pods).
  ForecastPassStores(store::DemandHistoryRepository* demand_history, store::PendingWaitsRepository* pending_waits,
                     const store::CapacityReadRepository* capacity_read, teams::TeamDirectory* shared_directory,
                     store::ForecastRepository* forecast_runs)
      : history(demand_history),
        waits(pending_waits),
        capacity(capacity_read),
        directory(shared_directory),
        forecasts(forecast_runs) {}
  // Over a directory of its own on `team_facts` and `policies`, made once here.
  ForecastPassStores(store::DemandHistoryRepository* demand_history, store::PendingWaitsRepository* pending_waits,
                     const store::CapacityReadRepository* capacity_read, store::TeamFactsRepository* team_facts,
                     policy::PolicyTimeline* policies, store::ForecastRepository* forecast_runs)
      : history(demand_history),
        waits(pending_waits),
        capacity(capacity_read),
        forecasts(forecast_runs),
        own_directory_(std::make_shared<teams::TeamDirectory>(team_facts, policies)) {
    directory = own_directory_.get();
  }

  store::DemandHistoryRepository* history = nullptr;
  store::PendingWaitsRepository* waits = nullptr;
  const store::CapacityReadRepository* capacity = nullptr;
  teams::TeamDirectory* directory = nullptr;
  store::ForecastRepository* forecasts = nullptr;

 private:
  std::shared_ptr<teams::TeamDirectory> own_directory_;
};

struct ForecastReport {
  std::optional<int64_t> run_id;  // none: not run (see `skipped`)
  std::string skipped;            // why not: "no policy", "no history yet", "done this interval"
  int64_t series = 0;             // series stored, capacity included
  int64_t failed = 0;             // series the engine refused (logged, left out)
  int64_t pruned = 0;             // old runs deleted
};

class ForecastPass {
 public:
  // Everything must outlive this.
  ForecastPass(ForecastPassStores stores, ForecastPassOptions options, const Clock* clock)
      : stores_(stores), options_(options), clock_(clock) {}

  // One run, unless the latest stored one falls in the current interval.
  // `watermark`: the fleet's chargeback watermark, where the history ends.
  absl::StatusOr<ForecastReport> Run(std::optional<absl::Time> watermark);

 private:
  // Why no run is due ("" when one is); `in_force` the policy when one is.
  absl::StatusOr<std::string> WhyNotRun(std::optional<absl::Time> watermark, absl::Time now,
                                        policy::PolicyInForce* in_force);
  // Stores the run and prunes the old ones.
  absl::Status Write(const store::ForecastRunDraft& draft, ForecastReport* report);

  ForecastPassStores stores_;
  ForecastPassOptions options_;
  const Clock* clock_;
};

}  // namespace fleetcap::optimizer

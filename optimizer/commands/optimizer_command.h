#pragma once
// fleetcap-optimizer: computes the chargeback of closed hours from the
// fleet's watermark, in a loop or --once, and `recompute --from --to` on
// demand (docs/attribution.md, "The optimizer daemon"); after each pass it
// runs allocation from measured demand and stores the run
// (allocation_pass.h, docs/allocation.md), and once a UTC day forecasts
// demand and stores the run (forecast_pass.h, docs/planning.md), and each
// cluster's rightsizing recommendations (rightsizing_pass.h,
// docs/insights.md); `allocate` solves allocation offline (allocate_command.h).

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "optimizer/allocation_pass/allocation_pass.h"
#include "optimizer/chargeback/chargeback_run.h"
#include "optimizer/forecast_pass/forecast_pass.h"
#include "optimizer/insights_pass/rightsizing_pass.h"
#include "optimizer/waste_pass/waste_pass.h"

namespace fleetcap::optimizer {

// The hours `recompute` rewrites.
struct RecomputeHours {
  absl::Time from;
  absl::Time to;
};

struct OptimizerOptions {
  DaemonOptions daemon;
  chargeback::RunOptions run;
  bool once = false;
  absl::Duration interval = absl::Seconds(60);
  std::optional<RecomputeHours> recompute;  // set for `fleetcap-optimizer recompute`
  AllocationPassOptions allocation;         // the allocation run after each pass
  ForecastPassOptions forecast;             // the daily forecast run after it
  RightsizingPassOptions rightsizing;       // the daily rightsizing run after that
  // The holds of whole workloads the waste pass reads at once (WastePassOptions::batch_holds).
  int64_t waste_batch_holds = WastePassOptions{}.batch_holds;
  // How long each pass then moves usage minutes to rest (0: never, for a
  // store whose minutes are moved by another instance, or not at all).
  absl::Duration usage_to_rest_budget = absl::Seconds(30);
};

// The options in `args` (the arguments after the program's name; "recompute"
// first for that command), or INVALID_ARGUMENT naming the flag. Pure: `env`
// is the environment.
absl::StatusOr<OptimizerOptions> ParseOptimizerFlags(const std::vector<std::string>& args, const Environment& env);

// Runs the daemon (or one pass, or the recompute) until done or SIGTERM.
absl::Status RunOptimizer(const OptimizerOptions& options);

// Parses and runs (`allocate` by RunAllocateCommand); returns the exit code.
int RunOptimizerCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::optimizer

#include "optimizer/commands/optimizer_command.h"

#include <unistd.h>

#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/clock.h"
#include "common/daemon.h"
#include "common/exit.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "optimizer/budget_pass/budget_pass.h"
#include "optimizer/chargeback/hours.h"
#include "optimizer/commands/allocate_command.h"
#include "optimizer/commands/optimizer_metrics.h"
#include "optimizer/commands/work_sharing.h"
#include "optimizer/teams/team_directory.h"
#include "optimizer/waste_pass/waste_pass.h"
#include "store/migrator.h"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_attribution_facts_repository.h"
#include "store/pg_capacity_repository.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_demand_history_repository.h"
#include "store/pg_forecast_repository.h"
#include "store/pg_insight_waste_repository.h"
#include "store/pg_instant_checkpoints.h"
#include "store/pg_optimizer_state_repository.h"
#include "store/pg_pending_waits_repository.h"
#include "store/pg_rightsizing_repository.h"
#include "store/pg_team_facts_repository.h"
#include "store/pg_usage_compaction.h"
#include "store/pg_usage_repository.h"
#include "store/pg_usage_rollup_repository.h"

namespace fleetcap::optimizer {
namespace {

constexpr const char* kOptimizerUsage = R"([--once] [flags]
       fleetcap-optimizer recompute --from T --to T [flags]
       fleetcap-optimizer allocate --policy FILE --demand FILE [--format table|json]

Computes the chargeback of every closed hour of the fleet from the
watermark on, then every --interval (or once, with --once), recomputing
hours marked since (late telemetry, corrected inventory, a new policy
version) within --settle-window. `recompute` computes the whole hours
[--from, --to) again now, whatever the settle window. Several instances
share the work by cluster: each computes the clusters no other is computing,
and one of them the fleet's fixed lines (docs/scaling.md). After each pass
the instance doing the fleet's work recommends quotas from measured demand
and stores the run when the policy or the watermark changed, or every
--allocation-interval (docs/allocation.md). Once a UTC day (every
--forecast-interval) the same instance forecasts held and pending demand per
team and flavor and stores the run (docs/planning.md), computes the waste
and efficiency of the hours the chargeback computed, and (every
--insights-interval) each cluster's rightsizing recommendations over the
policy's lookback (docs/insights.md). `allocate` recommends quotas offline,
without a database.)";

absl::StatusOr<absl::Duration> DurationFlag(const std::string& flag, const std::string& text, bool positive) {
  absl::Duration d;
  if (!absl::ParseDuration(text, &d) || d == absl::InfiniteDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": \"", text, "\" is not a duration (e.g. 90s, 10m, 72h)"));
  }
  if (positive ? d <= absl::ZeroDuration() : d < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": ", text, positive ? " must be longer than zero" : " must not be negative"));
  }
  return d;
}

absl::StatusOr<absl::Time> HourFlag(const std::string& flag, const std::string& text) {
  if (text.empty()) return absl::InvalidArgumentError(absl::StrCat("--", flag, ": missing; give a whole UTC hour"));
  FLEETCAP_ASSIGN_OR_RETURN(absl::Time t, ParseRfc3339(absl::StrCat("--", flag), text));
  if (!chargeback::IsHour(t)) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", text, " is not a whole hour"));
  }
  return t;
}

absl::StatusOr<absl::Duration> WholeHoursFlag(const std::string& flag, const std::string& text, bool positive) {
  FLEETCAP_ASSIGN_OR_RETURN(absl::Duration d, DurationFlag(flag, text, positive));
  if (d % absl::Hours(1) != absl::ZeroDuration() || d > absl::Hours(2160)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": ", text, " is not whole hours up to 2160h (90 days)"));
  }
  return d;
}

absl::Status ParseAllocationFlags(const std::string& lookback, int64_t percentile, const std::string& horizon,
                                  const std::string& pending_weight, const std::string& interval,
                                  AllocationPassOptions* out) {
  FLEETCAP_ASSIGN_OR_RETURN(out->demand.lookback, WholeHoursFlag("allocation-lookback", lookback, true));
  if (percentile < 1 || percentile > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("--allocation-percentile: ", percentile, " is out of range (1..100)"));
  }
  out->demand.percentile = static_cast<int>(percentile);
  FLEETCAP_ASSIGN_OR_RETURN(out->demand.trend_horizon, WholeHoursFlag("allocation-trend-horizon", horizon, false));
  FLEETCAP_ASSIGN_OR_RETURN(out->demand.pending_full_weight,
                            DurationFlag("allocation-pending-weight", pending_weight, true));
  if (out->demand.pending_full_weight < absl::Seconds(1) || out->demand.pending_full_weight > absl::Hours(2160)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--allocation-pending-weight: ", pending_weight, " is out of range (1s..2160h)"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(out->interval, DurationFlag("allocation-interval", interval, true));
  return allocation::ValidateMeasuredDemandOptions(out->demand);
}

// One allocation run after a pass. A failure is logged and counted, and the
// daemon goes on: allocation never stops attribution.
void RunAllocation(AllocationPass& allocation, std::optional<absl::Time> watermark, OptimizerMetrics& metrics) {
  const absl::StatusOr<AllocationReport> report = allocation.Run(watermark);
  metrics.RecordAllocation(report);
  if (!report.ok()) {
    Logger("optimizer")->error("allocation failed (the chargeback goes on): {}", report.status().ToString());
    return;
  }
  if (report->unplaced.held_hours > 0 || report->unplaced.pending_pods > 0) {
    Logger("optimizer")
        ->warn("allocation: {} held hours and {} pending pods are of no leaf team or flavor of the policy",
               report->unplaced.held_hours, report->unplaced.pending_pods);
  }
  if (report->run_id) {
    std::cout << "fleetcap-optimizer: allocation run " << *report->run_id << " stored, " << report->recommendations
              << " recommendations" << std::endl;
    Logger("optimizer")->info("allocation run {}: {} recommendations", *report->run_id, report->recommendations);
  } else {
    std::cout << "fleetcap-optimizer: allocation not run: " << report->skipped << std::endl;
  }
}

// The fleet summary's checkpoints (store/pg_instant_checkpoints.h) built
// after each pass, for a bounded time: a store with a year of history
// without them is filled over many passes, newest first.
void FillCheckpoints(store::PgInstantCheckpoints& checkpoints, const Clock& clock) {
  constexpr absl::Duration kBudget = absl::Seconds(20);
  const absl::StatusOr<store::CheckpointFill> fill = checkpoints.Fill(clock, kBudget);
  if (!fill.ok()) {
    Logger("optimizer")->error("summary checkpoints: {}", fill.status().ToString());
  } else if (fill->built > 0 || !fill->complete) {
    Logger("optimizer")
        ->info("summary checkpoints: {} built{}", fill->built, fill->complete ? "" : ", more left for the next pass");
  }
}

// The usage minutes moved to rest (store/pg_usage_compaction.h) after each
// pass, for `budget`: a store migrated with many hours in usage_minute is
// moved over many passes, newest first.
void CompactUsage(store::PgUsageCompaction& compaction, const Clock& clock, absl::Duration budget) {
  if (budget <= absl::ZeroDuration()) return;
  const absl::StatusOr<store::UsageCompaction> done = compaction.Compact(clock, budget);
  if (!done.ok()) {
    Logger("optimizer")->error("usage minutes to rest: {}", done.status().ToString());
  } else if (done->hours > 0 || !done->complete || done->days_reindexed > 0) {
    Logger("optimizer")
        ->info("usage minutes to rest: {} hours, {} minutes moved{}; {} ended days' indexes rebuilt", done->hours,
               done->minutes, done->complete ? "" : ", more left for the next pass", done->days_reindexed);
  }
}

// The budgets of the month after a pass, exported as gauges. A failure is
// logged and counted, and the daemon goes on: budgets never stop attribution.
void RunBudgets(budgets::BudgetPass& budget_pass, std::optional<absl::Time> watermark, OptimizerMetrics& metrics) {
  const absl::StatusOr<budgets::BudgetPassReport> report = budget_pass.Run(watermark);
  metrics.RecordBudgets(report);
  if (!report.ok()) {
    Logger("optimizer")->error("budgets failed (the chargeback goes on): {}", report.status().ToString());
  }
}

absl::Status ParseForecastFlags(const std::string& interval, const std::string& lookback, const std::string& horizon,
                                int64_t keep_runs, ForecastPassOptions* out) {
  FLEETCAP_ASSIGN_OR_RETURN(out->interval, WholeHoursFlag("forecast-interval", interval, true));
  FLEETCAP_ASSIGN_OR_RETURN(out->lookback, WholeHoursFlag("forecast-lookback", lookback, true));
  FLEETCAP_ASSIGN_OR_RETURN(absl::Duration ahead, WholeHoursFlag("forecast-horizon", horizon, true));
  out->horizon_hours = static_cast<int32_t>(ahead / absl::Hours(1));
  out->keep_runs = keep_runs;
  return ValidateForecastPassOptions(*out);
}

// The flags of the waste pass and the rightsizing run.
void RegisterInsightsFlags(FlagSet& flags, std::string* insights_interval, OptimizerOptions* options) {
  flags.String("insights-interval", insights_interval,
               "how often each cluster's rightsizing is computed, on whole multiples since the epoch (24h: once per "
               "UTC day)");
  flags.Int("waste-batch-holds", &options->waste_batch_holds,
            "the holds (a pod's device) of whole workloads the waste pass reads a cluster's minutes for at once "
            "(1..1000000)");
  flags.Int("rightsizing-batch-holds", &options->rightsizing.batch_holds,
            "the holds of whole workloads the rightsizing run reads a cluster's minutes for at once (1..1000000)");
}

absl::Status ParseInsightsFlags(const std::string& insights_interval, OptimizerOptions* options) {
  FLEETCAP_ASSIGN_OR_RETURN(options->rightsizing.interval,
                            WholeHoursFlag("insights-interval", insights_interval, true));
  FLEETCAP_RETURN_IF_ERROR(ValidateRightsizingPassOptions(options->rightsizing));
  for (const auto& [flag, holds] : {std::pair{"waste-batch-holds", options->waste_batch_holds},
                                    std::pair{"rightsizing-batch-holds", options->rightsizing.batch_holds}}) {
    if (holds < 1 || holds > 1'000'000) {
      return absl::InvalidArgumentError(absl::StrCat("--", flag, ": ", holds, " is out of range (1..1000000)"));
    }
  }
  return absl::OkStatus();
}

// One forecast run after a pass, when its interval has come. A failure is
// logged and the daemon goes on: forecasts never stop attribution.
void RunForecast(ForecastPass& forecast, std::optional<absl::Time> watermark, OptimizerMetrics& metrics,
                 const Clock& clock) {
  const absl::Time began = clock.Now();
  const absl::Duration start = clock.Monotonic();
  const absl::StatusOr<ForecastReport> report = forecast.Run(watermark);
  metrics.RecordForecast(report, began, clock.Monotonic() - start);
  if (!report.ok()) {
    Logger("optimizer")->error("forecast failed (the chargeback goes on): {}", report.status().ToString());
    return;
  }
  if (report->failed > 0) {
    Logger("optimizer")->warn("forecast: {} series refused by the engine and left out", report->failed);
  }
  if (report->run_id) {
    std::cout << "fleetcap-optimizer: forecast run " << *report->run_id << " stored, " << report->series << " series"
              << std::endl;
    Logger("optimizer")
        ->info("forecast run {}: {} series, {} old runs deleted", *report->run_id, report->series, report->pruned);
  } else {
    std::cout << "fleetcap-optimizer: forecast not run: " << report->skipped << std::endl;
  }
}

// One rightsizing run after a pass, for the clusters whose interval has come.
// A failure is logged and the daemon goes on: insights never stop attribution.
void RunRightsizing(RightsizingPass& rightsizing, OptimizerMetrics& metrics, const Clock& clock) {
  const absl::Time began = clock.Now();
  const absl::Duration start = clock.Monotonic();
  const absl::StatusOr<RightsizingPassReport> report = rightsizing.Run();
  metrics.RecordRightsizing(report, began, clock.Monotonic() - start);
  if (!report.ok()) {
    Logger("optimizer")->error("rightsizing failed (the chargeback goes on): {}", report.status().ToString());
    return;
  }
  if (!report->skipped.empty()) {
    std::cout << "fleetcap-optimizer: rightsizing not run: " << report->skipped << std::endl;
  } else if (report->clusters > 0) {
    std::cout << "fleetcap-optimizer: rightsizing stored for " << report->clusters << " clusters, "
              << report->recommendations << " recommendations" << std::endl;
    Logger("optimizer")
        ->info("rightsizing: {} clusters computed ({} current), {} recommendations saving {} micro-units a month",
               report->clusters, report->current, report->recommendations, report->savings_micro_per_month);
  }
}

// The waste and efficiency of the hours the chargeback computed, after each
// pass. A failure is logged and the daemon goes on: insights never stop
// attribution.
void RunWaste(WastePass& waste, const std::atomic<bool>* stop) {
  const absl::StatusOr<WasteReport> report = waste.Run(stop);
  if (!report.ok()) {
    Logger("optimizer")->error("waste failed (the chargeback goes on): {}", report.status().ToString());
  } else if (report->hours > 0) {
    Logger("optimizer")
        ->info("waste: {} cluster hours computed ({} marked again), {} idle runs", report->hours, report->recomputed,
               report->runs);
  }
}

// `recompute`: each cluster's hours under its lock, then the fixed lines
// under the fleet lock, waiting for instances that hold them to finish their
// pass (the fleet lock: to end).
absl::Status Recompute(const RecomputeHours& hours, int batch_hours, chargeback::ChargebackRun& run, WorkLocks& locks,
                       OptimizerMetrics& metrics) {
  FLEETCAP_RETURN_IF_ERROR(locks.WaitFleet());
  FLEETCAP_ASSIGN_OR_RETURN(const std::vector<std::string> clusters, run.Clusters());
  int64_t total = 0;
  for (absl::Time start = hours.from; start < hours.to;) {
    const absl::Time end = std::min(start + absl::Hours(batch_hours), hours.to);
    for (const std::string& cluster : clusters) {
      FLEETCAP_RETURN_IF_ERROR(locks.WaitCluster(cluster));
      absl::StatusOr<chargeback::HoursReport> report = run.ComputeClusterHours(cluster, start, end);
      FLEETCAP_RETURN_IF_ERROR(locks.ReleaseCluster(cluster));
      if (!report.ok()) return report.status();
      metrics.RecordHours(*report);
    }
    FLEETCAP_ASSIGN_OR_RETURN(chargeback::HoursReport fixed, run.ComputeFixedHours(start, end));
    metrics.RecordHours(fixed);
    total += (end - start) / absl::Hours(1);
    start = end;
  }
  std::cout << "recomputed " << total << " hours [" << FormatRfc3339(hours.from) << ", " << FormatRfc3339(hours.to)
            << ")\n";
  return absl::OkStatus();
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

}  // namespace

absl::StatusOr<OptimizerOptions> ParseOptimizerFlags(const std::vector<std::string>& input, const Environment& env) {
  OptimizerOptions options;
  std::vector<std::string> args = input;
  const bool recompute = !args.empty() && args[0] == "recompute";
  if (recompute) args.erase(args.begin());
  std::string interval = "60s", close_delay = "10m", settle_window = "72h", recompute_lease = "15m", from, to;
  std::string usage_to_rest = "30s";
  std::string lookback = "168h", horizon = "24h", pending_weight = "1h", allocation_interval = "1h";
  int64_t percentile = options.allocation.demand.percentile;
  int64_t batch_hours = options.run.batch_hours;
  std::string forecast_interval = "24h", forecast_lookback = "2160h", forecast_horizon = "2160h";
  int64_t forecast_keep_runs = options.forecast.keep_runs;
  std::string insights_interval = "24h";
  FlagSet flags("fleetcap-optimizer", kOptimizerUsage, env);
  RegisterDaemonFlags(flags, &options.daemon);
  flags.Int("batch-hours", &batch_hours, "the most hours computed in one engine run (1..744)");
  if (recompute) {
    flags.String("from", &from, "the first whole UTC hour to compute again (RFC 3339)");
    flags.String("to", &to, "the whole UTC hour to stop before (RFC 3339)");
  } else {
    flags.Bool("once", &options.once, "one pass (recompute, then catch up), then exit");
    flags.String("interval", &interval, "the time between passes");
    flags.String("close-delay", &close_delay, "how long after its end an hour is closed (its telemetry settled)");
    flags.String("settle-window", &settle_window, "how far back marked hours are recomputed");
    flags.String("recompute-lease", &recompute_lease,
                 "how long the marked hours a pass recomputes stay its own (another instance takes them after)");
    flags.String("allocation-lookback", &lookback, "the held history measured demand reads (whole hours)");
    flags.Int("allocation-percentile", &percentile,
              "the percentile of hourly held devices in measured demand (1..100)");
    flags.String("allocation-trend-horizon", &horizon, "how far ahead the held trend is projected (whole hours)");
    flags.String("allocation-pending-weight", &pending_weight,
                 "how long a pending pod waits before its request counts in full");
    flags.String("allocation-interval", &allocation_interval,
                 "the longest time between allocation runs when the policy and the watermark are unchanged");
    flags.String("forecast-interval", &forecast_interval,
                 "how often demand is forecast, on whole multiples since the epoch (24h: once per UTC day)");
    flags.String("forecast-lookback", &forecast_lookback,
                 "the held and pending history forecasts are fitted on "
                 "(whole hours, up to 2160h)");
    flags.String("forecast-horizon", &forecast_horizon, "how far ahead demand is forecast (whole hours, up to 2160h)");
    flags.Int("forecast-keep-runs", &forecast_keep_runs, "the stored forecast runs kept, older ones deleted (2..1000)");
    flags.String("usage-to-rest-budget", &usage_to_rest, "how long each pass moves usage minutes to rest (0s: never)");
    RegisterInsightsFlags(flags, &insights_interval, &options);
  }
  FLEETCAP_RETURN_IF_ERROR(ParseDaemonCommand(flags, args, &options.daemon));
  if (!options.daemon.help.empty()) return options;
  if (batch_hours < 1 || batch_hours > 744) {
    return absl::InvalidArgumentError(absl::StrCat("--batch-hours: ", batch_hours, " is out of range (1..744)"));
  }
  options.run.batch_hours = static_cast<int>(batch_hours);
  FLEETCAP_ASSIGN_OR_RETURN(options.interval, DurationFlag("interval", interval, true));
  FLEETCAP_ASSIGN_OR_RETURN(options.run.close_delay, DurationFlag("close-delay", close_delay, false));
  FLEETCAP_ASSIGN_OR_RETURN(options.run.settle_window, DurationFlag("settle-window", settle_window, false));
  FLEETCAP_ASSIGN_OR_RETURN(options.run.recompute_lease, DurationFlag("recompute-lease", recompute_lease, true));
  FLEETCAP_ASSIGN_OR_RETURN(options.usage_to_rest_budget, DurationFlag("usage-to-rest-budget", usage_to_rest, false));
  FLEETCAP_RETURN_IF_ERROR(
      ParseAllocationFlags(lookback, percentile, horizon, pending_weight, allocation_interval, &options.allocation));
  FLEETCAP_RETURN_IF_ERROR(ParseForecastFlags(forecast_interval, forecast_lookback, forecast_horizon,
                                              forecast_keep_runs, &options.forecast));
  FLEETCAP_RETURN_IF_ERROR(ParseInsightsFlags(insights_interval, &options));
  if (recompute) {
    RecomputeHours hours;
    FLEETCAP_ASSIGN_OR_RETURN(hours.from, HourFlag("from", from));
    FLEETCAP_ASSIGN_OR_RETURN(hours.to, HourFlag("to", to));
    if (!(hours.from < hours.to)) {
      return absl::InvalidArgumentError(absl::StrCat("--to: ", to, " is not after --from ", from));
    }
    options.recompute = hours;
    options.daemon.stop_on_signal = false;  // a one-shot: SIGTERM ends it at once
  }
  FLEETCAP_RETURN_IF_ERROR(RequireDb(options.daemon));
  options.daemon.db_connections = 3;  // the locks' session, the work, a spare
  return options;
}

// Says what a pass computed, on stdout and in the log.
void ReportPass(const SharedPassReport& pass) {
  std::cout << "fleetcap-optimizer: pass done, " << pass.pass.computed.hours << " hours computed" << std::endl;
  Logger("optimizer")
      ->info("pass: {} cluster hours computed, clusters [{}], busy with another instance [{}], {}",
             pass.pass.computed.hours, absl::StrJoin(pass.clusters, ", "), absl::StrJoin(pass.busy, ", "),
             pass.fleet ? absl::StrCat("fleet watermark ", pass.pass.watermark ? FormatRfc3339(*pass.pass.watermark)
                                                                               : std::string("none (no history yet)"))
                        : std::string("the fleet's work is another instance's"));
}

absl::Status RunOptimizer(const OptimizerOptions& options) {
  FLEETCAP_ASSIGN_OR_RETURN(auto daemon, Daemon::Start(options.daemon, store::CheckSchema));
  OptimizerMetrics metrics(*daemon->registry());
  if (daemon->metrics_port() > 0) {
    std::cout << "fleetcap-optimizer: metrics on port " << daemon->metrics_port() << std::endl;
  }
  RealClock clock;
  const std::atomic<bool>* stop = options.recompute ? nullptr : daemon->stop_requested();

  // Every lock of this instance is on this one session (work_sharing.h).
  FLEETCAP_ASSIGN_OR_RETURN(PgPool::Lease lock_session, daemon->pool()->Acquire());
  WorkLocks locks(&*lock_session);

  store::PgAttributionFactsRepository facts(daemon->pool());
  store::PgTeamFactsRepository team_facts(daemon->pool());
  store::PgChargebackRepository chargeback(daemon->pool());
  store::PgOptimizerStateRepository state(daemon->pool());
  store::PgUsageRollupRepository rollups(daemon->pool());
  // One timeline and one team directory over it, shared by every pass.
  policy::PolicyTimeline policies(teams::PoliciesOf(&team_facts));
  teams::TeamDirectory directory(&team_facts, &policies);
  chargeback::RunOptions run_options = options.run;
  run_options.holder = absl::StrCat(HostName(), ":", getpid());
  chargeback::ChargebackRun run({{&facts, &directory}, &rollups, &chargeback, &state, &chargeback}, run_options,
                                &clock);
  store::PgDemandHistoryRepository history(daemon->pool());
  store::PgAllocationRunRepository runs(daemon->pool());
  AllocationPass allocation({&history, &directory, &runs}, options.allocation, &clock);
  store::PgPendingWaitsRepository waits(daemon->pool());
  store::PgCapacityRepository capacity(daemon->pool());
  store::PgForecastRepository forecasts(daemon->pool());
  ForecastPass forecast({&history, &waits, &capacity, &directory, &forecasts}, options.forecast, &clock);
  budgets::BudgetPass budget_pass(&chargeback, &policies, &clock);
  store::PgUsageRepository usage(daemon->pool());
  store::PgRightsizingRepository recommendations(daemon->pool());
  RightsizingPass rightsizing({&facts, &usage, &directory, &recommendations}, options.rightsizing, &clock);
  store::PgInsightWasteRepository waste_store(daemon->pool());
  WastePass waste({{&facts, &directory}, &usage, &chargeback, &waste_store},
                  {options.run.batch_hours, WastePassOptions{}.mark_batch, options.waste_batch_holds});
  store::PgInstantCheckpoints checkpoints(daemon->pool());
  store::PgUsageCompaction compaction(daemon->pool());

  if (options.recompute) return Recompute(*options.recompute, options.run.batch_hours, run, locks, metrics);

  const uint64_t offset = InstanceOffset(HostName(), static_cast<int64_t>(getpid()));
  for (;;) {
    const absl::Duration began = clock.Monotonic();
    auto pass = SharedPass(run, locks, offset, stop, [&](const std::string& cluster, int64_t hours) {
      metrics.RecordClusterPass(cluster, hours);
    });
    if (pass.ok()) {
      metrics.RecordPass(pass->pass, pass->fleet, clock.Monotonic() - began);
      ReportPass(*pass);
      if (pass->fleet) {
        RunAllocation(allocation, pass->pass.watermark, metrics);
        RunForecast(forecast, pass->pass.watermark, metrics, clock);
        RunBudgets(budget_pass, pass->pass.watermark, metrics);
        RunWaste(waste, stop);
        RunRightsizing(rightsizing, metrics, clock);
      } else {
        metrics.ClearBudgets();
      }
      FillCheckpoints(checkpoints, clock);
      CompactUsage(compaction, clock, options.usage_to_rest_budget);
    } else if (options.once) {
      return pass.status();
    } else {
      Logger("optimizer")
          ->error("pass failed, retrying in {}: {}", absl::FormatDuration(options.interval), pass.status().ToString());
    }
    if (options.once) return absl::OkStatus();
    if (clock.SleepUnlessStopped(options.interval, *stop)) {
      Logger("optimizer")->info("stopping");
      return absl::OkStatus();
    }
  }
}

int RunOptimizerCommand(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "allocate") return RunAllocateCommand({args.begin() + 1, args.end()});
  const bool recompute = !args.empty() && args[0] == "recompute";
  return RunCommand(recompute ? "fleetcap-optimizer recompute" : "fleetcap-optimizer",
                    ParseOptimizerFlags(args, ProcessEnvironment()), RunOptimizer);
}

}  // namespace fleetcap::optimizer

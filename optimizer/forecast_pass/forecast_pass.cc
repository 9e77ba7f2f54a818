#include "optimizer/forecast_pass/forecast_pass.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/forecast_pass/forecast_history_loader.h"
#include "optimizer/forecast_pass/forecast_run_builder.h"

namespace fleetcap::optimizer {
namespace {

int64_t Periods(absl::Time t, absl::Duration interval) {
  return absl::ToInt64Seconds(t - absl::UnixEpoch()) / absl::ToInt64Seconds(interval);
}

}  // namespace

absl::Status ValidateForecastPassOptions(const ForecastPassOptions& o) {
  if (o.interval < absl::Hours(1) || o.interval % absl::Hours(1) != absl::ZeroDuration() ||
      o.interval > absl::Hours(24 * 31)) {
    return absl::InvalidArgumentError(
        absl::StrCat("--forecast-interval: ", absl::FormatDuration(o.interval), " is not whole hours from 1h to 744h"));
  }
  if (o.lookback < absl::Hours(1) || o.lookback % absl::Hours(1) != absl::ZeroDuration() ||
      o.lookback > absl::Hours(store::kMaxForecastHours)) {
    return absl::InvalidArgumentError(absl::StrCat("--forecast-lookback: ", absl::FormatDuration(o.lookback),
                                                   " is not whole hours from 1h to 2160h (90 days)"));
  }
  if (o.horizon_hours < 1 || o.horizon_hours > store::kMaxForecastHours) {
    return absl::InvalidArgumentError(
        absl::StrCat("--forecast-horizon: ", o.horizon_hours, " hours is out of range (1h..2160h)"));
  }
  if (o.keep_runs < 2 || o.keep_runs > 1000) {
    return absl::InvalidArgumentError(
        absl::StrCat("--forecast-keep-runs: ", o.keep_runs, " is out of range (2..1000)"));
  }
  if (o.max_pending_waits < 0) {
    return absl::InvalidArgumentError(absl::StrCat("max_pending_waits: negative (", o.max_pending_waits, ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ForecastPass::WhyNotRun(std::optional<absl::Time> watermark, absl::Time now,
                                                    policy::PolicyInForce* in_force) {
  FLEETCAP_ASSIGN_OR_RETURN(auto latest, stores_.forecasts->LatestRun());
  if (latest && Periods(latest->computed_at, options_.interval) >= Periods(now, options_.interval)) {
    return std::string("done this interval");
  }
  if (!watermark) return std::string("no history yet");
  FLEETCAP_RETURN_IF_ERROR(stores_.directory->Refresh());
  *in_force = stores_.directory->timeline().At(now);
  if (in_force->version == 0) return std::string("no policy");
  return std::string();
}

absl::Status ForecastPass::Write(const store::ForecastRunDraft& draft, ForecastReport* report) {
  report->series = static_cast<int64_t>(draft.series.size());
  FLEETCAP_ASSIGN_OR_RETURN(int64_t id, stores_.forecasts->StoreRun(draft));
  report->run_id = id;
  FLEETCAP_ASSIGN_OR_RETURN(report->pruned, stores_.forecasts->PruneRuns(options_.keep_runs));
  return absl::OkStatus();
}

absl::StatusOr<ForecastReport> ForecastPass::Run(std::optional<absl::Time> watermark) {
  ForecastReport report;
  const absl::Time now = clock_->Now();
  policy::PolicyInForce in_force;
  FLEETCAP_ASSIGN_OR_RETURN(report.skipped, WhyNotRun(watermark, now, &in_force));
  if (!report.skipped.empty()) return report;

  store::ForecastRunHeader header;
  header.computed_at = now;
  header.forecast_start = *watermark;
  header.history_start = header.forecast_start - options_.lookback;
  header.horizon_hours = options_.horizon_hours;
  const ForecastHistoryStores history_stores{stores_.history, stores_.waits, stores_.capacity,
                                             stores_.directory->facts()};
  FLEETCAP_ASSIGN_OR_RETURN(
      SeriesSums sums, LoadForecastHistory(history_stores, *in_force.teams,
                                           {header.history_start, header.forecast_start, options_.max_pending_waits}));
  FLEETCAP_ASSIGN_OR_RETURN(BuiltForecastRun built, BuildForecastRun(sums, header));
  report.failed = built.failed;
  FLEETCAP_RETURN_IF_ERROR(Write(built.draft, &report));
  return report;
}

}  // namespace fleetcap::optimizer

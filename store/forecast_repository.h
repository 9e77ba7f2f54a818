#pragma once
// Forecast runs (issue 16): what fleetcap-optimizer forecast once a UTC day
// for each team and flavor and each flavor's total, held and pending demand,
// beside each flavor's capacity, with the model and its fit. The optimizer
// writes through ForecastRepository; the API reads the newest run's series.
// The records hold plain numbers: the model code lives in optimizer/forecast/
// (store/ may not include optimizer/).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// What a series measures (the column's CHECK in migration 0021).
inline constexpr const char* kForecastWhat[] = {"held", "pending", "capacity"};

// The longest horizon and history a run may hold, in hours (90 days).
inline constexpr int64_t kMaxForecastHours = 2160;
// Bounds on the text a series carries: names, not documents.
inline constexpr size_t kMaxForecastNameBytes = 256;
inline constexpr size_t kMaxForecastReasonBytes = 1024;
inline constexpr size_t kMaxForecastFitEntries = 32;

// One series of a run. Points are milli-devices averaged over each hour.
struct ForecastSeriesRecord {
  std::string flavor;
  std::string team;           // "" for the flavor's total; always "" for capacity
  std::string what = "held";  // one of kForecastWhat
  std::string model;          // e.g. "holt_winters", "seasonal_naive", "last_value"
  // The fitted parameters and in-sample figures, by name (finite numbers).
  std::map<std::string, double> fit;
  std::string fallback_reason;   // why a simpler model was used; "" when none
  std::vector<int64_t> history;  // one per hour from the run's history_start up to forecast_start
  std::vector<int64_t> p50;      // one per hour of the horizon from forecast_start
  std::vector<int64_t> p90;      // the same hours, each at least its p50
  // The first UTC day (its midnight) the p50 / p90 exceeds the flavor's
  // capacity; none: not within the horizon, or not computed (pending, capacity).
  std::optional<absl::Time> exhaustion_p50;
  std::optional<absl::Time> exhaustion_p90;

  bool operator==(const ForecastSeriesRecord& o) const;
};

// What identifies a run: its hours and when it was computed.
struct ForecastRunHeader {
  int64_t run_id = 0;  // 0 in a draft
  // Kept to the microsecond, truncated (ForecastRunTime).
  absl::Time computed_at;
  absl::Time history_start;   // a whole hour
  absl::Time forecast_start;  // a whole hour, the end of the history
  int32_t horizon_hours = 0;  // 1..kMaxForecastHours

  bool operator==(const ForecastRunHeader& o) const;
};

struct ForecastRunDraft {
  ForecastRunHeader header;  // run_id ignored
  std::vector<ForecastSeriesRecord> series;
};

// Which series of a run to read.
struct ForecastSeriesKey {
  std::string flavor;
  std::string team;  // "" for the flavor's total
  std::string what;
};

class ForecastRepository {
 public:
  virtual ~ForecastRepository() = default;

  // Stores `run` in one transaction and returns its id, larger than every
  // earlier run's. INVALID_ARGUMENT naming the field for hours that are not
  // whole or out of order, a horizon outside 1..kMaxForecastHours, history
  // longer than that, a series with an empty flavor or model, a `what`
  // outside kForecastWhat, a team on a capacity series, a repeated (flavor,
  // team, what), point counts that do not match the run's hours, a negative
  // point, a p90 below its p50, a non-finite fit or text past its bound.
  virtual absl::StatusOr<int64_t> StoreRun(const ForecastRunDraft& run) = 0;

  // The newest run's header; none before the first run.
  virtual absl::StatusOr<std::optional<ForecastRunHeader>> LatestRun() = 0;

  // One series of run `run_id`; none when the run has no such series.
  virtual absl::StatusOr<std::optional<ForecastSeriesRecord>> Series(int64_t run_id, const ForecastSeriesKey& key) = 0;

  // Deletes every run but the newest `keep` (at least 1) and their series;
  // returns how many runs went.
  virtual absl::StatusOr<int64_t> PruneRuns(int64_t keep) = 0;
};

// The validation StoreRun applies, shared by every implementation.
absl::Status ValidateForecastRun(const ForecastRunDraft& run);

// `t` truncated to the microsecond, as every implementation keeps it.
absl::Time ForecastRunTime(absl::Time t);

// The fit as the JSON object stored (keys sorted) and back.
std::string ForecastFitJson(const std::map<std::string, double>& fit);
absl::StatusOr<std::map<std::string, double>> ForecastFitFromJson(const std::string& json);

}  // namespace fleetcap::store

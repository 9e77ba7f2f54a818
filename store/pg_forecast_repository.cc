#include "store/pg_forecast_repository.h"

#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

// A bigint[] literal: "{1,2,3}".
std::string ArrayText(const std::vector<int64_t>& points) { return absl::StrCat("{", absl::StrJoin(points, ","), "}"); }

absl::StatusOr<std::vector<int64_t>> ArrayFromText(absl::string_view text) {
  std::vector<int64_t> points;
  if (!absl::ConsumePrefix(&text, "{") || !absl::ConsumeSuffix(&text, "}")) {
    return absl::DataLossError(absl::StrCat("forecast series: \"", text, "\" is not an array"));
  }
  if (text.empty()) return points;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    int64_t value = 0;
    if (!absl::SimpleAtoi(item, &value)) {
      return absl::DataLossError(absl::StrCat("forecast series: \"", item, "\" is not a number"));
    }
    points.push_back(value);
  }
  return points;
}

// COPY writes NULL for a null `const char*`; this keeps the time's text alive.
struct OptionalTime {
  explicit OptionalTime(const std::optional<absl::Time>& t)
      : text(t ? FormatRfc3339(*t) : ""), present(t.has_value()) {}
  const char* get() const { return present ? text.c_str() : nullptr; }
  std::string text;
  bool present;
};

}  // namespace

absl::StatusOr<int64_t> PgForecastRepository::StoreRun(const ForecastRunDraft& run) {
  FLEETCAP_RETURN_IF_ERROR(ValidateForecastRun(run));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec("SELECT pg_advisory_xact_lock(hashtext('fleetcap.forecast_runs'))");
    const ForecastRunHeader& h = run.header;
    const int64_t run_id =
        txn.exec_params(
               "INSERT INTO forecast_runs (computed_at, history_start, forecast_start, horizon_hours)"
               " VALUES ($1::timestamptz, $2::timestamptz, $3::timestamptz, $4) RETURNING run_id",
               FormatRfc3339(ForecastRunTime(h.computed_at)), FormatRfc3339(h.history_start),
               FormatRfc3339(h.forecast_start), h.horizon_hours)[0][0]
            .as<int64_t>();
    if (!run.series.empty()) {
      pqxx::stream_to copy(
          txn, "forecast_series",
          std::vector<std::string>{"run_id", "flavor", "team", "what", "model", "fit", "fallback_reason", "history",
                                   "p50", "p90", "exhaustion_p50", "exhaustion_p90"});
      for (const ForecastSeriesRecord& s : run.series) {
        const OptionalTime p50_day(s.exhaustion_p50), p90_day(s.exhaustion_p90);
        copy << std::make_tuple(run_id, s.flavor, s.team, s.what, s.model, ForecastFitJson(s.fit), s.fallback_reason,
                                ArrayText(s.history), ArrayText(s.p50), ArrayText(s.p90), p50_day.get(), p90_day.get());
      }
      copy.complete();
    }
    txn.commit();
    return run_id;
  } catch (const std::exception& e) {
    return PgError("forecasts: storing a run", e);
  }
}

absl::StatusOr<std::optional<ForecastRunHeader>> PgForecastRepository::LatestRun() {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    const pqxx::result rows = txn.exec(absl::StrCat(
        "SELECT run_id, ", EpochMicrosSql("computed_at"), ", ", EpochMicrosSql("history_start"), ", ",
        EpochMicrosSql("forecast_start"), ", horizon_hours FROM forecast_runs ORDER BY run_id DESC LIMIT 1"));
    if (rows.empty()) return std::optional<ForecastRunHeader>();
    ForecastRunHeader h;
    h.run_id = rows[0][0].as<int64_t>();
    h.computed_at = absl::FromUnixMicros(rows[0][1].as<int64_t>());
    h.history_start = absl::FromUnixMicros(rows[0][2].as<int64_t>());
    h.forecast_start = absl::FromUnixMicros(rows[0][3].as<int64_t>());
    h.horizon_hours = rows[0][4].as<int32_t>();
    return std::optional<ForecastRunHeader>(h);
  } catch (const std::exception& e) {
    return PgError("forecasts: reading the newest run", e);
  }
}

absl::StatusOr<std::optional<ForecastSeriesRecord>> PgForecastRepository::Series(int64_t run_id,
                                                                                 const ForecastSeriesKey& key) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  pqxx::result rows;
  try {
    pqxx::nontransaction txn(*lease);
    rows =
        txn.exec_params(absl::StrCat("SELECT model, fit::text, fallback_reason, history::text, p50::text, p90::text, ",
                                     EpochMicrosSql("exhaustion_p50"), ", ", EpochMicrosSql("exhaustion_p90"),
                                     " FROM forecast_series WHERE run_id = $1 AND flavor = $2 AND team = $3"
                                     " AND what = $4"),
                        run_id, key.flavor, key.team, key.what);
  } catch (const std::exception& e) {
    return PgError(absl::StrCat("forecasts: reading run ", run_id, "'s series of flavor \"", key.flavor, "\""), e);
  }
  if (rows.empty()) return std::optional<ForecastSeriesRecord>();
  const auto& r = rows[0];
  ForecastSeriesRecord s;
  s.flavor = key.flavor;
  s.team = key.team;
  s.what = key.what;
  s.model = r[0].as<std::string>();
  FLEETCAP_ASSIGN_OR_RETURN(s.fit, ForecastFitFromJson(r[1].as<std::string>()));
  s.fallback_reason = r[2].as<std::string>();
  FLEETCAP_ASSIGN_OR_RETURN(s.history, ArrayFromText(r[3].as<std::string>()));
  FLEETCAP_ASSIGN_OR_RETURN(s.p50, ArrayFromText(r[4].as<std::string>()));
  FLEETCAP_ASSIGN_OR_RETURN(s.p90, ArrayFromText(r[5].as<std::string>()));
  if (!r[6].is_null()) s.exhaustion_p50 = absl::FromUnixMicros(r[6].as<int64_t>());
  if (!r[7].is_null()) s.exhaustion_p90 = absl::FromUnixMicros(r[7].as<int64_t>());
  return std::optional<ForecastSeriesRecord>(std::move(s));
}

absl::StatusOr<int64_t> PgForecastRepository::PruneRuns(int64_t keep) {
  if (keep < 1) return absl::InvalidArgumentError(absl::StrCat("keep: ", keep, " is below 1"));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    // The series go with their run (ON DELETE CASCADE).
    const pqxx::result gone = txn.exec_params(
        "DELETE FROM forecast_runs WHERE run_id NOT IN"
        " (SELECT run_id FROM forecast_runs ORDER BY run_id DESC LIMIT $1)",
        keep);
    txn.commit();
    return static_cast<int64_t>(gone.affected_rows());
  } catch (const std::exception& e) {
    return PgError("forecasts: deleting old runs", e);
  }
}

}  // namespace fleetcap::store

#include "store/pg_chargeback_repository.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "nlohmann/json.hpp"
#include "pqxx/pqxx"
#include "store/pg_chargeback_devices.h"
#include "store/pg_chargeback_lines_sql.h"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

constexpr const char* kSums =
    "held_milli_seconds, used_milli_seconds, observed_milli_seconds, direct_cost_micro, idle_cost_micro,"
    " shared_cost_micro, total_cost_micro";
// Summed in bigint by fleetcap_sum_int64 (migration 0017): a sum past int64
// is refused with SQLSTATE 22003, never wrapped.
constexpr const char* kSummed =
    "fleetcap_sum_int64(held_milli_seconds), fleetcap_sum_int64(used_milli_seconds),"
    " fleetcap_sum_int64(observed_milli_seconds), fleetcap_sum_int64(direct_cost_micro), "
    "fleetcap_sum_int64(idle_cost_micro),"
    " fleetcap_sum_int64(shared_cost_micro), fleetcap_sum_int64(total_cost_micro)";
// The same columns with the money left at 0 (ChargebackFilter::device_time_only).
constexpr const char* kDeviceTimeSummed =
    "fleetcap_sum_int64(held_milli_seconds), fleetcap_sum_int64(used_milli_seconds),"
    " fleetcap_sum_int64(observed_milli_seconds), 0, 0, 0, 0";

// The store refused a sum past bigint (SQLSTATE 22003, numeric value out of range).
bool OutOfRange(const pqxx::sql_error& e) { return e.sqlstate() == "22003"; }

// The keys after cluster and period of the full rollups, and of the team
// rollups chargeback_hourly_by_team, chargeback_daily_by_team and
// chargeback_monthly_by_team (no namespace, no workload).
constexpr const char* kAllKeys = "team, namespace, workload, model, line_kind";
constexpr const char* kTeamKeys = "team, model, line_kind";
// The keys of chargeback_hourly_by_model (no team either).
constexpr const char* kModelKeys = "model, line_kind";

// Rebuilds `to`'s rows of the periods in [from_start, from_end) from `from`'s
// rows, `keys` (after cluster and period) being the columns `to` keeps. The
// rows go in by period, so that a period's rows share few pages: a read of a
// few hours (the ragged ends of a window) touches those pages only.
void Rebuild(pqxx::transaction_base& txn, const std::string& cluster, const std::string& to, const std::string& period,
             const std::string& from, const std::string& from_time, const char* keys, absl::Time start,
             absl::Time end) {
  txn.exec_params(absl::StrCat("DELETE FROM ", to, " WHERE cluster = $1 AND ", period, " >= $2::timestamptz AND ",
                               period, " < $3::timestamptz"),
                  cluster, FormatRfc3339(start), FormatRfc3339(end));
  txn.exec_params(absl::StrCat("INSERT INTO ", to, " (cluster, ", period, ", ", keys, ", ", kSums,
                               ", no_telemetry) SELECT cluster, date_trunc('", period, "', ", from_time, ", 'UTC'), ",
                               keys, ", ", kSummed, ", bool_or(no_telemetry) FROM ", from, " WHERE cluster = $1 AND ",
                               from_time, " >= $2::timestamptz AND ", from_time,
                               " < $3::timestamptz GROUP BY cluster, 2, ", keys, " ORDER BY 2"),
                  cluster, FormatRfc3339(start), FormatRfc3339(end));
}

absl::StatusOr<int64_t> Int64Sum(const pqxx::field& f, const char* what) {
  int64_t v = 0;
  if (!absl::SimpleAtoi(f.c_str(), &v)) {
    return absl::OutOfRangeError(absl::StrCat("chargeback: the sum of ", what, " is past int64"));
  }
  return v;
}

// The rollups of one set of keys, by grain, and the columns (after the
// period) that every one of them keeps.
struct RollupGrains {
  const char* hourly;
  const char* daily;
  const char* monthly;
  const char* columns;
};
// Every key.
constexpr RollupGrains kLineRollups = {"chargeback_hourly", "chargeback_daily", "chargeback_monthly",
                                       "cluster, team, namespace, workload, model, line_kind"};
// Without namespace and workload (migrations 0014, 0015, 0031).
constexpr RollupGrains kTeamRollups = {"chargeback_hourly_by_team", "chargeback_daily_by_team",
                                       "chargeback_monthly_by_team", "cluster, team, model, line_kind"};
// Without team, namespace and workload: hours by model (migration 0031); the
// days and months of the team rollups, which have these columns too.
constexpr RollupGrains kModelRollups = {"chargeback_hourly_by_model", "chargeback_daily_by_team",
                                        "chargeback_monthly_by_team", "cluster, model, line_kind"};

// A range of times [from, to), as SQL, and as times.
struct SqlRange {
  std::string from, to;
  absl::Time from_time, to_time;
};

std::string TimestampSql(absl::Time t) { return absl::StrCat("'", FormatRfc3339(t), "'::timestamptz"); }

// The period a branch's rows are summed into (`p`) at `resolution`
// (kDay or kMonth), for rows of `table_grain` ("hour", "day" or "month",
// its time column) in [r.from_time, r.to_time): the time itself when the
// rollup is of that grain, one constant when the range lies in one period
// (the ragged hours lie in one day, the ragged days around whole months in
// one month), date_trunc of each row's time otherwise.
std::string BranchPeriod(ChargebackResolution resolution, const char* table_grain, const SqlRange& r) {
  const bool by_day = resolution == ChargebackResolution::kDay;
  const char* grain = by_day ? "day" : "month";
  if (std::string(table_grain) == grain) return table_grain;
  const absl::Time first = by_day ? DayStart(r.from_time) : MonthStart(r.from_time);
  const absl::Time last = by_day ? DayStart(r.to_time - absl::Hours(1)) : MonthStart(r.to_time - absl::Hours(1));
  if (first == last) return TimestampSql(first);
  return absl::StrCat("date_trunc('", grain, "', ", table_grain, ", 'UTC')");
}

// The rows of `table` whose `time` is in any of `ranges`, as (t, p,
// columns...), p being the period of `resolution` (kDay or kMonth; $1 for
// kNone) each row is summed into: one branch a range, so that each is one
// range of the time index. The ranges OR'd in one WHERE were not index
// conditions: the scan took the window's bounds (pushed down from the outer
// query) and filtered every row of the window out but the ragged hours (a
// 30-day report read 30 days of hourly team rows to keep 24 hours of them).
std::string RollupBranch(const char* table, const char* time, const char* columns, const std::vector<SqlRange>& ranges,
                         ChargebackResolution resolution) {
  std::vector<std::string> branches;
  for (const SqlRange& r : ranges) {
    const std::string period =
        resolution == ChargebackResolution::kNone ? "$1::timestamptz" : BranchPeriod(resolution, time, r);
    branches.push_back(absl::StrCat("SELECT ", time, " AS t, ", period, " AS p, ", columns, ", ", kSums,
                                    ", no_telemetry FROM ", table, " WHERE ", time, " >= ", r.from, " AND ", time,
                                    " < ", r.to));
  }
  return absl::StrJoin(branches, " UNION ALL ");
}

// Where Lines reads `f`'s window from, `*time` set to the time column: one
// rollup of `rollups`, or the union of the window's whole months, whole days
// and ragged hours, each from the rollup of its grain (time "t").
std::string LinesSource(const ChargebackFilter& f, const RollupGrains& rollups, ChargebackResolution resolution,
                        const char** time) {
  // The whole days inside the window; the hours before and after them, if any, come from the hourly lines.
  const absl::Time days_start = DayStart(f.start) == f.start ? f.start : DayStart(f.start) + absl::Hours(24);
  const absl::Time days_end = DayStart(f.end);
  // The whole months inside those days (read by month unless the answer is by hour or day).
  const absl::Time months_start =
      MonthStart(days_start) == days_start ? days_start : MonthStart(MonthStart(days_start) + absl::Hours(24 * 32));
  const absl::Time months_end = MonthStart(days_end);
  const bool months = (resolution == ChargebackResolution::kMonth || resolution == ChargebackResolution::kNone) &&
                      days_start < days_end && months_start < months_end;
  std::string source = rollups.hourly;
  *time = "hour";
  if (SourceFor(f, resolution) == ChargebackSource::kMonthly) {
    source = rollups.monthly;
    *time = "month";
  } else if (resolution != ChargebackResolution::kHour && days_start < days_end) {
    // The whole months (when the resolution allows) read the monthly
    // rollup, the whole days around them the daily one, and only the ragged
    // ends the hourly lines; each branch only when it has a period to read.
    std::vector<std::string> branches;
    std::vector<SqlRange> hours, days;
    auto range = [](absl::Time from, absl::Time to) {
      return SqlRange{TimestampSql(from), TimestampSql(to), from, to};
    };
    if (f.start < days_start) hours.push_back({"$1::timestamptz", TimestampSql(days_start), f.start, days_start});
    if (days_end < f.end) hours.push_back({TimestampSql(days_end), "$2::timestamptz", days_end, f.end});
    if (!hours.empty()) branches.push_back(RollupBranch(rollups.hourly, "hour", rollups.columns, hours, resolution));
    if (!months) {
      days.push_back(range(days_start, days_end));
    } else {
      if (days_start < months_start) days.push_back(range(days_start, months_start));
      if (months_end < days_end) days.push_back(range(months_end, days_end));
      branches.push_back(
          RollupBranch(rollups.monthly, "month", rollups.columns, {range(months_start, months_end)}, resolution));
    }
    if (!days.empty()) branches.push_back(RollupBranch(rollups.daily, "day", rollups.columns, days, resolution));
    *time = "t";
    source = absl::StrCat("(", absl::StrJoin(branches, " UNION ALL "), ") AS lines");
  }
  return source;
}

// The query Lines runs for `f`, `g` and `resolution`, `quoted_teams` being
// f.teams quoted; its parameters are, in order, start, end, cluster,
// namespace, workload, model and line_kind (ExecChargebackLines).
std::string LinesSelect(const ChargebackFilter& f, const ChargebackGroupBy& g, ChargebackResolution resolution,
                        const std::vector<std::string>& quoted_teams) {
  // Without namespace or workload (grouped or filtered), the team rollups
  // have the same sums in far fewer rows; without team as well, the hours
  // by model.
  const bool by_team = !g.namespace_name && !g.workload && f.namespace_name.empty() && f.workload.empty();
  const bool by_model = by_team && !g.team && f.teams.empty();
  const RollupGrains& rollups = by_model ? kModelRollups : by_team ? kTeamRollups : kLineRollups;
  const char* time = "hour";
  const std::string source = LinesSource(f, rollups, resolution, &time);
  std::string period;
  switch (resolution) {
    case ChargebackResolution::kHour:
      period = time;
      break;
    case ChargebackResolution::kDay:
      period = absl::StrCat("date_trunc('day', ", time, ", 'UTC')");
      break;
    case ChargebackResolution::kMonth:
      period = absl::StrCat("date_trunc('month', ", time, ", 'UTC')");
      break;
    default:
      period = "$1::timestamptz";
      break;
  }
  // The branches of the rollups carry each row's period.
  if (std::string(time) == "t" && resolution != ChargebackResolution::kNone) period = "p";
  auto key = [](bool grouped, const char* column) { return grouped ? std::string(column) : std::string("''::text"); };
  // Grouped by the period and the keys asked for, as the rows have them:
  // the period's Unix seconds and the keys not asked for ('') are computed
  // on the groups, not on every row summed (an extract() in numeric a row,
  // and five constant columns carried through the aggregation, were half
  // of a 90-day hourly read's time). The period is always grouped, so that
  // no rows give no groups. Bytewise order, whatever the database's collation.
  std::string group = period, order = period;
  for (const auto& [grouped, column] :
       {std::pair{g.team, "team"}, std::pair{g.cluster, "cluster"}, std::pair{g.namespace_name, "namespace"},
        std::pair{g.workload, "workload"}, std::pair{g.model, "model"}, std::pair{g.line_kind, "line_kind"}}) {
    if (grouped) {
      absl::StrAppend(&group, ", ", column);
      absl::StrAppend(&order, ", ", column, " COLLATE \"C\"");
    }
  }
  const std::string team_filter =
      quoted_teams.empty() ? "" : absl::StrCat(" AND team IN (", absl::StrJoin(quoted_teams, ","), ")");
  return absl::StrCat(
      "SELECT extract(epoch FROM ", period, ")::bigint, ", key(g.team, "team"), ", ", key(g.cluster, "cluster"), ", ",
      key(g.namespace_name, "namespace"), ", ", key(g.workload, "workload"), ", ", key(g.model, "model"), ", ",
      key(g.line_kind, "line_kind"), ", ", f.device_time_only ? kDeviceTimeSummed : kSummed,
      ", bool_or(no_telemetry) FROM ", source, " WHERE ", time, " >= $1::timestamptz AND ", time, " < $2::timestamptz",
      team_filter, " AND ($3 = '' OR cluster = $3)",
      by_team ? " AND $4 = '' AND $5 = ''" : " AND ($4 = '' OR namespace = $4) AND ($5 = '' OR workload = $5)",
      " AND ($6 = '' OR model = $6) AND ($7 = '' OR line_kind = $7)"
      " GROUP BY ",
      group, " ORDER BY ", order, f.max_lines > 0 ? absl::StrCat(" LIMIT ", f.max_lines + 1) : "");
}

// The rows the plan `node` (EXPLAIN's JSON) and those under it read from tables, as the planner expects them.
double RowsFromTables(const nlohmann::json& node) {
  double rows = 0;
  if (node.contains("Relation Name") && node.contains("Plan Rows") && node["Plan Rows"].is_number()) {
    rows += node["Plan Rows"].get<double>();
  }
  if (node.contains("Plans") && node["Plans"].is_array()) {
    for (const nlohmann::json& child : node["Plans"]) rows += RowsFromTables(child);
  }
  return rows;
}

}  // namespace

pqxx::result ExecChargebackLines(pqxx::transaction_base& txn, const std::string& prefix, const ChargebackFilter& f,
                                 const ChargebackGroupBy& g, ChargebackResolution resolution) {
  std::vector<std::string> teams;
  for (const std::string& team : f.teams) teams.push_back(txn.quote(team));
  return txn.exec_params(prefix + LinesSelect(f, g, resolution, teams), FormatRfc3339(f.start), FormatRfc3339(f.end),
                         f.cluster, f.namespace_name, f.workload, f.model, f.line_kind);
}

absl::Status PgChargebackRepository::ReplaceHours(const std::string& cluster, absl::Time start, absl::Time end,
                                                  const ChargebackHours& hours) {
  FLEETCAP_RETURN_IF_ERROR(CheckReplacement(cluster, start, end, hours));
  const std::vector<ChargebackLineRecord>& lines = hours.lines;
  const std::vector<OverHeldRecord>& over_held = hours.over_held;
  if (start == end) return absl::OkStatus();
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec_params("SELECT pg_advisory_xact_lock(hashtext('fleetcap.chargeback:' || $1))", cluster);
    txn.exec_params(
        "DELETE FROM chargeback_hourly WHERE cluster = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz",
        cluster, FormatRfc3339(start), FormatRfc3339(end));
    if (!lines.empty()) {
      pqxx::stream_to copy(txn, "chargeback_hourly",
                           std::vector<std::string>{"cluster", "hour", "team", "namespace", "workload", "model",
                                                    "line_kind", "held_milli_seconds", "used_milli_seconds",
                                                    "observed_milli_seconds", "direct_cost_micro", "idle_cost_micro",
                                                    "shared_cost_micro", "total_cost_micro", "no_telemetry"});
      for (const ChargebackLineRecord& l : lines) {
        copy << std::make_tuple(l.cluster, FormatRfc3339(l.hour), l.team, l.namespace_name, l.workload, l.model,
                                l.line_kind, l.held_milli_seconds, l.used_milli_seconds, l.observed_milli_seconds,
                                l.direct_cost_micro, l.idle_cost_micro, l.shared_cost_micro, l.total_cost_micro,
                                l.no_telemetry ? "t" : "f");
      }
      copy.complete();
    }
    txn.exec_params(
        "DELETE FROM chargeback_over_held WHERE cluster = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz",
        cluster, FormatRfc3339(start), FormatRfc3339(end));
    for (const OverHeldRecord& o : over_held) {
      std::vector<std::string> quoted;
      for (const std::string& uid : o.pod_uids) quoted.push_back(txn.quote(uid));
      txn.exec_params(absl::StrCat("INSERT INTO chargeback_over_held (cluster, hour, device_id, held_from, held_to,"
                                   " held_milli, pod_uids) VALUES ($1, date_trunc('hour', $2::timestamptz, 'UTC'),"
                                   " $3, $2::timestamptz, $4::timestamptz, $5, ARRAY[",
                                   absl::StrJoin(quoted, ","), "]::text[])"),
                      cluster, FormatRfc3339(o.from), o.device_id, FormatRfc3339(o.to), o.held_milli);
    }
    // The days and months the hours touch, rebuilt whole.
    const absl::Time last = end - absl::Hours(1);
    const absl::Time days_end = DayStart(last) + absl::Hours(24);
    const absl::Time months_end = MonthStart(MonthStart(last) + absl::Hours(24 * 32));
    Rebuild(txn, cluster, "chargeback_hourly_by_team", "hour", "chargeback_hourly", "hour", kTeamKeys, start, end);
    Rebuild(txn, cluster, "chargeback_daily", "day", "chargeback_hourly", "hour", kAllKeys, DayStart(start), days_end);
    Rebuild(txn, cluster, "chargeback_daily_by_team", "day", "chargeback_hourly_by_team", "hour", kTeamKeys,
            DayStart(start), days_end);
    Rebuild(txn, cluster, "chargeback_monthly", "month", "chargeback_daily", "day", kAllKeys, MonthStart(start),
            months_end);
    Rebuild(txn, cluster, "chargeback_hourly_by_model", "hour", "chargeback_hourly_by_team", "hour", kModelKeys, start,
            end);
    Rebuild(txn, cluster, "chargeback_monthly_by_team", "month", "chargeback_daily_by_team", "day", kTeamKeys,
            MonthStart(start), months_end);
    pg_chargeback_devices::Replace(txn, cluster, start, end, hours.devices);
    txn.commit();
  } catch (const pqxx::sql_error& e) {
    if (OutOfRange(e)) {
      return absl::OutOfRangeError(
          absl::StrCat("chargeback: a rollup of ", cluster, " would be past int64: ", e.what()));
    }
    return PgError("chargeback: replacing hours", e);
  } catch (const std::exception& e) {
    return PgError("chargeback: replacing hours", e);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<absl::Time>> PgChargebackRepository::Watermark(const std::string& cluster) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    auto rows = txn.exec_params(
        "SELECT extract(epoch FROM through)::bigint FROM chargeback_watermarks WHERE cluster = $1", cluster);
    if (rows.empty()) return std::optional<absl::Time>();
    return std::optional<absl::Time>(SecondsField(rows[0][0]));
  } catch (const std::exception& e) {
    return PgError("chargeback: reading the watermark", e);
  }
}

absl::Status PgChargebackRepository::AdvanceWatermark(const std::string& cluster, absl::Time through) {
  if (!IsWholeHour(through)) {
    return absl::InvalidArgumentError(absl::StrCat("chargeback: watermark of ", cluster,
                                                   " through: ", FormatRfc3339(through), " is not a whole hour"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    // Never backwards: a recomputation behind the watermark leaves it alone.
    txn.exec_params(
        "INSERT INTO chargeback_watermarks (cluster, through) VALUES ($1, $2::timestamptz)"
        " ON CONFLICT (cluster) DO UPDATE SET through = greatest(chargeback_watermarks.through, EXCLUDED.through),"
        " updated_at = now()",
        cluster, FormatRfc3339(through));
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("chargeback: advancing the watermark", e);
  }
  return absl::OkStatus();
}

absl::Status PgChargebackRepository::MarkForRecompute(const std::string& cluster, const std::vector<absl::Time>& hours,
                                                      const std::string& reason) {
  for (absl::Time hour : hours) {
    if (!IsWholeHour(hour)) {
      return absl::InvalidArgumentError(
          absl::StrCat("chargeback: recompute of ", cluster, " hour: ", FormatRfc3339(hour), " is not a whole hour"));
    }
  }
  // By hour, as the marking triggers lock them (migration 0024): never a deadlock with them.
  std::vector<absl::Time> by_hour = hours;
  std::sort(by_hour.begin(), by_hour.end());
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    for (absl::Time hour : by_hour) {
      txn.exec_params(
          "INSERT INTO chargeback_recompute (cluster, hour, reason) VALUES ($1, $2::timestamptz, $3)"
          " ON CONFLICT (cluster, hour) DO UPDATE SET generation = chargeback_recompute.generation + 1"
          " WHERE chargeback_recompute.taken_until IS NOT NULL",
          cluster, FormatRfc3339(hour), reason);
    }
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("chargeback: marking hours to recompute", e);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<RecomputeMark>> PgChargebackRepository::LeaseRecompute(const std::string& cluster, int limit,
                                                                                  const std::string& holder,
                                                                                  absl::Time now,
                                                                                  absl::Duration lease) {
  FLEETCAP_RETURN_IF_ERROR(CheckLease(cluster, limit, holder, lease));
  FLEETCAP_ASSIGN_OR_RETURN(auto pg, pool_->Acquire());
  std::vector<RecomputeMark> leased;
  try {
    pqxx::work txn(*pg);
    // SKIP LOCKED: two instances leasing at once never lease the same mark.
    auto rows = txn.exec_params(
        "UPDATE chargeback_recompute SET lease = lease + 1, taken_by = $3, taken_until = $5::timestamptz"
        " WHERE cluster = $1 AND hour IN (SELECT hour FROM chargeback_recompute WHERE cluster = $1"
        "  AND (taken_until IS NULL OR taken_until <= $4::timestamptz) ORDER BY hour LIMIT $2 FOR UPDATE SKIP LOCKED)"
        " RETURNING extract(epoch FROM hour)::bigint, reason, extract(epoch FROM noted_at)::bigint, generation, lease",
        cluster, limit, holder, FormatRfc3339(now), FormatRfc3339(now + lease));
    txn.commit();
    for (const auto& row : rows) {
      leased.push_back({SecondsField(row[0]), row[1].as<std::string>(), SecondsField(row[2]), row[3].as<int64_t>(),
                        row[4].as<int64_t>()});
    }
  } catch (const std::exception& e) {
    return PgError("chargeback: leasing hours to recompute", e);
  }
  std::sort(leased.begin(), leased.end(),
            [](const RecomputeMark& a, const RecomputeMark& b) { return a.hour < b.hour; });
  return leased;
}

namespace {

// `marks` as the arrays (hour in Unix seconds, generation, lease) that
// kLeasedMarks unnests: one statement however many marks.
std::tuple<std::string, std::string, std::string> MarkArrays(const std::vector<RecomputeMark>& marks) {
  std::vector<int64_t> hours, generations, leases;
  for (const RecomputeMark& m : marks) {
    hours.push_back(absl::ToUnixSeconds(m.hour));
    generations.push_back(m.generation);
    leases.push_back(m.lease);
  }
  return {absl::StrCat("{", absl::StrJoin(hours, ","), "}"), absl::StrCat("{", absl::StrJoin(generations, ","), "}"),
          absl::StrCat("{", absl::StrJoin(leases, ","), "}")};
}

constexpr const char* kLeasedMarks =
    " unnest($2::bigint[], $3::bigint[], $4::bigint[]) m(hour, generation, lease)"
    " WHERE r.cluster = $1 AND r.hour = to_timestamp(m.hour) AND r.lease = m.lease";

}  // namespace

absl::Status PgChargebackRepository::CompleteRecompute(const std::string& cluster,
                                                       const std::vector<RecomputeMark>& marks) {
  if (marks.empty()) return absl::OkStatus();
  const auto [hours, generations, leases] = MarkArrays(marks);
  FLEETCAP_ASSIGN_OR_RETURN(auto pg, pool_->Acquire());
  try {
    pqxx::work txn(*pg);
    txn.exec_params(
        absl::StrCat("DELETE FROM chargeback_recompute r USING", kLeasedMarks, " AND r.generation = m.generation"),
        cluster, hours, generations, leases);
    txn.exec_params(absl::StrCat("UPDATE chargeback_recompute r SET taken_by = NULL, taken_until = NULL FROM",
                                 kLeasedMarks, " AND r.generation <> m.generation"),
                    cluster, hours, generations, leases);
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("chargeback: completing hours recomputed", e);
  }
  return absl::OkStatus();
}

absl::Status PgChargebackRepository::ReleaseRecompute(const std::string& cluster,
                                                      const std::vector<RecomputeMark>& marks) {
  if (marks.empty()) return absl::OkStatus();
  const auto [hours, generations, leases] = MarkArrays(marks);
  FLEETCAP_ASSIGN_OR_RETURN(auto pg, pool_->Acquire());
  try {
    pqxx::work txn(*pg);
    txn.exec_params(
        absl::StrCat("UPDATE chargeback_recompute r SET taken_by = NULL, taken_until = NULL FROM", kLeasedMarks),
        cluster, hours, generations, leases);
    txn.commit();
  } catch (const std::exception& e) {
    return PgError("chargeback: releasing hours to recompute", e);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<ChargebackSum>> PgChargebackRepository::Lines(const ChargebackFilter& f,
                                                                         const ChargebackGroupBy& g,
                                                                         ChargebackResolution resolution) const {
  FLEETCAP_RETURN_IF_ERROR(CheckWindow(f));
  if (f.start == f.end) return std::vector<ChargebackSum>{};
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<ChargebackSum> out;
  try {
    pqxx::read_transaction txn(*lease);
    // A long window's estimate passes jit_above_cost by far, and compiling
    // the sums (a second or more) would cost more than running them. Nor
    // parallel workers: starting two (new processes, each loading its
    // catalog) cost more than the tens of thousands of rollup rows these
    // reads sum, and on a loaded server they wait for a core.
    txn.exec("SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0");
    const pqxx::result rows = ExecChargebackLines(txn, "", f, g, resolution);
    txn.commit();
    out.reserve(rows.size());
    for (const auto& row : rows) {
      ChargebackSum s;
      s.start = SecondsField(row[0]);
      s.team = row[1].as<std::string>();
      s.cluster = row[2].as<std::string>();
      s.namespace_name = row[3].as<std::string>();
      s.workload = row[4].as<std::string>();
      s.model = row[5].as<std::string>();
      s.line_kind = row[6].as<std::string>();
      FLEETCAP_ASSIGN_OR_RETURN(s.held_milli_seconds, Int64Sum(row[7], "held_milli_seconds"));
      FLEETCAP_ASSIGN_OR_RETURN(s.used_milli_seconds, Int64Sum(row[8], "used_milli_seconds"));
      FLEETCAP_ASSIGN_OR_RETURN(s.observed_milli_seconds, Int64Sum(row[9], "observed_milli_seconds"));
      FLEETCAP_ASSIGN_OR_RETURN(s.direct_cost_micro, Int64Sum(row[10], "direct_cost_micro"));
      FLEETCAP_ASSIGN_OR_RETURN(s.idle_cost_micro, Int64Sum(row[11], "idle_cost_micro"));
      FLEETCAP_ASSIGN_OR_RETURN(s.shared_cost_micro, Int64Sum(row[12], "shared_cost_micro"));
      FLEETCAP_ASSIGN_OR_RETURN(s.total_cost_micro, Int64Sum(row[13], "total_cost_micro"));
      s.no_telemetry = row[14].as<bool>();
      out.push_back(std::move(s));
    }
  } catch (const pqxx::sql_error& e) {
    if (OutOfRange(e)) return absl::OutOfRangeError("chargeback: a sum of the lines asked for is past int64");
    return PgError("chargeback: reading lines", e);
  } catch (const std::exception& e) {
    return PgError("chargeback: reading lines", e);
  }
  return out;
}

absl::StatusOr<int64_t> PgChargebackRepository::RowsRead(const ChargebackFilter& f, const ChargebackGroupBy& g,
                                                         ChargebackResolution resolution) const {
  FLEETCAP_RETURN_IF_ERROR(CheckWindow(f));
  if (f.start == f.end) return 0;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    const pqxx::result plan = ExecChargebackLines(txn, "EXPLAIN (FORMAT JSON) ", f, g, resolution);
    const nlohmann::json parsed = nlohmann::json::parse(plan.at(0).at(0).c_str());
    return static_cast<int64_t>(RowsFromTables(parsed.at(0).at("Plan")));
  } catch (const std::exception& e) {
    return PgError("chargeback: estimating a read", e);
  }
}

absl::StatusOr<DeviceUse> PgChargebackRepository::DevicesHeld(const DeviceUseFilter& f) const {
  FLEETCAP_RETURN_IF_ERROR(CheckDeviceUseFilter(f));
  if (f.start == f.end) return DeviceUse{};
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    txn.exec("SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0");  // as Lines, for the same reasons
    absl::StatusOr<DeviceUse> held = pg_chargeback_devices::Read(txn, f);
    txn.commit();
    return held;
  } catch (const pqxx::sql_error& e) {
    if (OutOfRange(e)) return absl::OutOfRangeError("chargeback: a sum of the devices asked for is past int64");
    return PgError("chargeback: reading devices held", e);
  } catch (const std::exception& e) {
    return PgError("chargeback: reading devices held", e);
  }
}

absl::StatusOr<std::vector<OverHeldRecord>> PgChargebackRepository::OverHeld(const std::string& cluster,
                                                                             absl::Time start, absl::Time end) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  std::vector<OverHeldRecord> out;
  try {
    pqxx::nontransaction txn(*lease);
    auto rows = txn.exec_params(
        "SELECT device_id, extract(epoch FROM held_from)::bigint, extract(epoch FROM held_to)::bigint, held_milli,"
        " pod_uids FROM chargeback_over_held WHERE cluster = $1 AND held_from >= $2::timestamptz"
        " AND held_from < $3::timestamptz ORDER BY held_from, device_id COLLATE \"C\"",
        cluster, FormatRfc3339(start), FormatRfc3339(end));
    for (const auto& row : rows) {
      OverHeldRecord o{
          cluster, row[0].as<std::string>(), SecondsField(row[1]), SecondsField(row[2]), row[3].as<int64_t>(), {}};
      auto uids = row[4].as_array();
      for (auto item = uids.get_next(); item.first != pqxx::array_parser::done; item = uids.get_next()) {
        if (item.first == pqxx::array_parser::string_value) o.pod_uids.push_back(item.second);
      }
      out.push_back(std::move(o));
    }
  } catch (const std::exception& e) {
    return PgError("chargeback: reading over-held devices", e);
  }
  return out;
}

}  // namespace fleetcap::store

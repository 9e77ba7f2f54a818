#include "store/pg_insight_waste_repository.h"

#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/chargeback_repository.h"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

void DeleteWasteHours(pqxx::work& txn, const char* table, const std::string& cluster, absl::Time start,
                      absl::Time end) {
  txn.exec_params(
      absl::StrCat("DELETE FROM ", table, " WHERE cluster = $1 AND hour >= $2::timestamptz AND hour < $3::timestamptz"),
      cluster, FormatRfc3339(start), FormatRfc3339(end));
}

void CopyPieces(pqxx::work& txn, const std::vector<IdlePieceRecord>& pieces) {
  if (pieces.empty()) return;
  pqxx::stream_to copy(txn, "insight_waste_runs",
                       std::vector<std::string>{"cluster", "hour", "pod_uid", "start_at", "end_at", "namespace", "team",
                                                "workload", "model", "devices_milli", "wasted_milli_seconds",
                                                "wasted_cost_micro", "activity_milli_seconds", "sm_milli_seconds"});
  for (const IdlePieceRecord& p : pieces) {
    copy << std::make_tuple(p.cluster, FormatRfc3339(p.hour), p.pod_uid, FormatRfc3339(p.start), FormatRfc3339(p.end),
                            p.namespace_name, p.team, p.workload, p.model, p.devices_milli, p.wasted_milli_seconds,
                            p.wasted_cost_micro, p.activity_milli_seconds, p.sm_milli_seconds);
  }
  copy.complete();
}

void CopyWorkloadHours(pqxx::work& txn, const std::vector<WorkloadHourRecord>& hours) {
  if (hours.empty()) return;
  pqxx::stream_to copy(txn, "insight_workload_hours",
                       std::vector<std::string>{"cluster", "hour", "team", "namespace", "workload",
                                                "held_milli_seconds", "observed_milli_seconds", "active_milli_seconds",
                                                "sm_observed_milli_seconds", "both_minutes", "both_held_milli_seconds",
                                                "both_duty_milli_seconds", "both_sm_milli_seconds"});
  for (const WorkloadHourRecord& h : hours) {
    copy << std::make_tuple(h.cluster, FormatRfc3339(h.hour), h.team, h.namespace_name, h.workload,
                            h.held_milli_seconds, h.observed_milli_seconds, h.active_milli_seconds,
                            h.sm_observed_milli_seconds, h.both_minutes, h.both_held_milli_seconds,
                            h.both_duty_milli_seconds, h.both_sm_milli_seconds);
  }
  copy.complete();
}

// The conditions of a filter read on cluster, namespace and teams; its
// parameters $3 cluster, $4 namespace.
std::string WasteSelectorSql(pqxx::transaction_base& txn, const WasteFilter& f) {
  std::string where = "($3 = '' OR cluster = $3) AND ($4 = '' OR namespace = $4)";
  if (!f.teams.empty()) {
    std::vector<std::string> quoted;
    for (const std::string& team : f.teams) quoted.push_back(txn.quote(team));
    absl::StrAppend(&where, " AND team IN (", absl::StrJoin(quoted, ","), ")");
  }
  return where;
}

// The WHERE clause of a filter read; its parameters are start, end, cluster, namespace.
std::string WasteWhere(pqxx::transaction_base& txn, const WasteFilter& f) {
  std::string where = absl::StrCat("hour >= $1::timestamptz AND hour < $2::timestamptz AND ", WasteSelectorSql(txn, f));
  if (!f.workloads.empty()) {
    std::vector<std::string> keys;
    for (const WasteWorkload& w : f.workloads) {
      keys.push_back(
          absl::StrCat("(", txn.quote(w.team), ",", txn.quote(w.namespace_name), ",", txn.quote(w.workload), ")"));
    }
    absl::StrAppend(&where, " AND (team, namespace, workload) IN (", absl::StrJoin(keys, ","), ")");
  }
  return where;
}

// PgInsightWasteRepository::WasteSums: the window's whole days [$5, $6) from
// the days, its hours outside them from the hours, summed per workload.
// A piece is a run of its own unless it continues one of the window
// (fleetcap_rebuild_waste_days); a day's runs are those it begins, and the
// window's first day also counts those it continues. Summed in numeric, so a
// sum past int64 is seen and refused, never wrapped.
std::string WasteSumsSql(pqxx::transaction_base& txn, const WasteFilter& f) {
  const std::string selector = WasteSelectorSql(txn, f);
  const std::string days = absl::StrCat("day >= $5::timestamptz AND day < $6::timestamptz AND ", selector);
  const std::string edges = absl::StrCat(
      "((hour >= $1::timestamptz AND hour < $5::timestamptz) OR (hour >= $6::timestamptz AND hour < $2::timestamptz))"
      " AND ",
      selector);
  constexpr const char* kTime =
      "held_milli_seconds, observed_milli_seconds, active_milli_seconds, sm_observed_milli_seconds, both_minutes,"
      " both_held_milli_seconds, both_duty_milli_seconds, both_sm_milli_seconds, 0, 0, 0";
  constexpr const char* kNoTime = "0, 0, 0, 0, 0, 0, 0, 0, ";
  return absl::StrCat(
      "SELECT team, namespace, workload, sum(held)::text, sum(observed)::text, sum(active)::text,"
      " sum(sm_observed)::text, sum(both_minutes)::text, sum(both_held)::text, sum(both_duty)::text,"
      " sum(both_sm)::text, sum(wasted)::text, sum(cost)::text, sum(runs)::text FROM ("
      "SELECT team, namespace, workload, ",
      kTime, " FROM insight_workload_days WHERE ", days, " UNION ALL SELECT team, namespace, workload, ", kTime,
      " FROM insight_workload_hours WHERE ", edges, " UNION ALL SELECT team, namespace, workload, ", kNoTime,
      "wasted_milli_seconds, wasted_cost_micro,"
      " runs_begun + CASE WHEN day = $1::timestamptz THEN runs_continued ELSE 0 END FROM insight_waste_days WHERE ",
      days, " UNION ALL SELECT team, namespace, workload, ", kNoTime,
      "wasted_milli_seconds, wasted_cost_micro,"
      " CASE WHEN r.hour <> $1::timestamptz AND r.start_at = r.hour AND EXISTS (SELECT 1 FROM insight_waste_runs p"
      " WHERE p.cluster = r.cluster AND p.hour = r.hour - interval '1 hour' AND p.pod_uid = r.pod_uid"
      " AND p.end_at = r.start_at) THEN 0 ELSE 1 END FROM insight_waste_runs r WHERE ",
      edges,
      ") AS x (team, namespace, workload, held, observed, active, sm_observed, both_minutes, both_held, both_duty,"
      " both_sm, wasted, cost, runs)"
      " GROUP BY team, namespace, workload"
      " ORDER BY team COLLATE \"C\", namespace COLLATE \"C\", workload COLLATE \"C\"");
}

// The first and last whole UTC days of [start, end): [first, last), or
// [end, end) when it holds none.
std::pair<absl::Time, absl::Time> WholeDays(absl::Time start, absl::Time end) {
  const int64_t day = 86'400;
  const int64_t s = absl::ToUnixSeconds(start), e = absl::ToUnixSeconds(end);
  const int64_t first = (s + day - 1) / day * day, last = e / day * day;  // times after 1970
  if (first >= last) return {end, end};
  return {absl::FromUnixSeconds(first), absl::FromUnixSeconds(last)};
}

// One transaction from Begin to Commit: the old rows deleted first, each
// part copied in; a failure aborts it (nothing changes) and ends the replacement.
class PgWasteReplacement : public WasteHoursReplacement {
 public:
  PgWasteReplacement(PgPool::Lease lease, std::string cluster, absl::Time start, absl::Time end)
      : lease_(std::move(lease)), cluster_(std::move(cluster)), start_(start), end_(end) {}

  absl::Status Begin() {
    try {
      txn_ = std::make_unique<pqxx::work>(*lease_);
    } catch (const std::exception& e) {
      return PgError(absl::StrCat("waste: beginning the replacement of hours of ", cluster_), e);
    }
    return Run("beginning", [&] {
      txn_->exec_params("SELECT pg_advisory_xact_lock(hashtext('fleetcap.insight_waste:' || $1))", cluster_);
      DeleteWasteHours(*txn_, "insight_waste_runs", cluster_, start_, end_);
      DeleteWasteHours(*txn_, "insight_workload_hours", cluster_, start_, end_);
    });
  }

  absl::Status Add(const std::vector<IdlePieceRecord>& pieces, const std::vector<WorkloadHourRecord>& hours) override {
    if (absl::Status s = CheckWasteReplacement(cluster_, start_, end_, pieces, hours); !s.ok()) {
      txn_.reset();  // aborts: a failed part ends the replacement
      return s;
    }
    return Run("writing", [&] {
      CopyPieces(*txn_, pieces);
      CopyWorkloadHours(*txn_, hours);
    });
  }

  absl::Status Commit() override {
    FLEETCAP_RETURN_IF_ERROR(Run("committing", [&] {
      // The days the hours touch and the day of the hour after them, whose
      // first pieces may continue their runs: rebuilt with the hours.
      if (start_ < end_) {
        txn_->exec_params(
            "SELECT fleetcap_rebuild_waste_days($1, date_trunc('day', $2::timestamptz, 'UTC'),"
            " date_trunc('day', $3::timestamptz, 'UTC') + interval '1 day')",
            cluster_, FormatRfc3339(start_), FormatRfc3339(end_));
      }
      txn_->commit();
    }));
    txn_.reset();
    return absl::OkStatus();
  }

 private:
  template <typename Step>
  absl::Status Run(const char* what, Step step) {
    if (txn_ == nullptr) {
      return absl::FailedPreconditionError(absl::StrCat("waste: the replacement of hours of ", cluster_, " is over"));
    }
    try {
      step();
      return absl::OkStatus();
    } catch (const std::exception& e) {
      txn_.reset();  // aborts
      return PgError(absl::StrCat("waste: ", what, " the replacement of hours of ", cluster_), e);
    }
  }

  PgPool::Lease lease_;  // declared before txn_: outlives it
  const std::string cluster_;
  const absl::Time start_, end_;
  std::unique_ptr<pqxx::work> txn_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<WasteHoursReplacement>> PgInsightWasteRepository::BeginReplaceHours(
    const std::string& cluster, absl::Time start, absl::Time end) {
  FLEETCAP_RETURN_IF_ERROR(CheckWasteHours(start, end));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  auto replacement = std::make_unique<PgWasteReplacement>(std::move(lease), cluster, start, end);
  FLEETCAP_RETURN_IF_ERROR(replacement->Begin());
  return std::unique_ptr<WasteHoursReplacement>(std::move(replacement));
}

absl::StatusOr<std::optional<absl::Time>> PgInsightWasteRepository::Watermark(const std::string& cluster) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    auto rows = txn.exec_params(
        "SELECT extract(epoch FROM through)::bigint FROM insight_waste_watermarks WHERE cluster = $1", cluster);
    if (rows.empty()) return std::optional<absl::Time>();
    return std::optional<absl::Time>(SecondsField(rows[0][0]));
  } catch (const std::exception& e) {
    return PgError("waste: reading the watermark", e);
  }
}

absl::Status PgInsightWasteRepository::AdvanceWatermark(const std::string& cluster, absl::Time through) {
  if (!IsWholeHour(through)) {
    return absl::InvalidArgumentError(
        absl::StrCat("waste: watermark of ", cluster, " through: ", FormatRfc3339(through), " is not a whole hour"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    txn.exec_params(
        "INSERT INTO insight_waste_watermarks (cluster, through) VALUES ($1, $2::timestamptz)"
        " ON CONFLICT (cluster) DO UPDATE SET through = greatest(insight_waste_watermarks.through, EXCLUDED.through),"
        " updated_at = now()",
        cluster, FormatRfc3339(through));
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("waste: advancing the watermark", e);
  }
}

absl::Status PgInsightWasteRepository::MarkHours(const std::string& cluster, const std::vector<absl::Time>& hours,
                                                 absl::Time noted_at) {
  for (absl::Time h : hours) {
    if (!IsWholeHour(h)) {
      return absl::InvalidArgumentError(absl::StrCat("waste: mark ", FormatRfc3339(h), " is not a whole hour"));
    }
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    for (absl::Time h : hours) {
      txn.exec_params(
          "INSERT INTO insight_waste_recompute (cluster, hour, noted_at) VALUES ($1, $2::timestamptz, $3::timestamptz)"
          " ON CONFLICT (cluster, hour) DO UPDATE SET noted_at = EXCLUDED.noted_at",
          cluster, FormatRfc3339(h), FormatRfc3339(noted_at));
    }
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("waste: marking hours", e);
  }
}

absl::StatusOr<std::vector<WasteMark>> PgInsightWasteRepository::Marks(const std::string& cluster, absl::Time before,
                                                                       int limit) {
  if (limit < 0) return absl::InvalidArgumentError(absl::StrCat("waste: marks limit ", limit, " is below 0"));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    const pqxx::result rows =
        txn.exec_params(absl::StrCat("SELECT extract(epoch FROM hour)::bigint, ", EpochMicrosSql("noted_at"),
                                     " FROM insight_waste_recompute WHERE cluster = $1 AND hour < $2::timestamptz"
                                     " ORDER BY hour LIMIT $3"),
                        cluster, FormatRfc3339(before), limit);
    std::vector<WasteMark> out;
    for (const auto& r : rows) out.push_back({SecondsField(r[0]), MicrosField(r[1])});
    return out;
  } catch (const std::exception& e) {
    return PgError("waste: reading the marks", e);
  }
}

absl::Status PgInsightWasteRepository::ClearMarks(const std::string& cluster, const std::vector<WasteMark>& marks) {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    for (const WasteMark& m : marks) {
      // noted_at is kept to the microsecond: the mark as read matches it exactly.
      txn.exec_params(absl::StrCat("DELETE FROM insight_waste_recompute WHERE cluster = $1 AND hour = $2::timestamptz"
                                   " AND ",
                                   EpochMicrosSql("noted_at"), " = $3"),
                      cluster, FormatRfc3339(m.hour), absl::ToUnixMicros(m.noted_at));
    }
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("waste: clearing marks", e);
  }
}

absl::StatusOr<std::vector<IdlePieceRecord>> PgInsightWasteRepository::Pieces(const WasteFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckWasteFilter(filter));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::nontransaction txn(*lease);
    const pqxx::result rows = txn.exec_params(
        absl::StrCat("SELECT cluster, extract(epoch FROM hour)::bigint, pod_uid, extract(epoch FROM start_at)::bigint,"
                     " extract(epoch FROM end_at)::bigint, namespace, team, workload, model, devices_milli,"
                     " wasted_milli_seconds, wasted_cost_micro, activity_milli_seconds, sm_milli_seconds"
                     " FROM insight_waste_runs WHERE ",
                     WasteWhere(txn, filter), " ORDER BY cluster COLLATE \"C\", pod_uid COLLATE \"C\", start_at",
                     filter.max_pieces > 0 ? absl::StrCat(" LIMIT ", filter.max_pieces + 1) : ""),
        FormatRfc3339(filter.start), FormatRfc3339(filter.end), filter.cluster, filter.namespace_name);
    std::vector<IdlePieceRecord> out;
    out.reserve(rows.size());
    for (const auto& r : rows) {
      out.push_back({r[0].as<std::string>(), SecondsField(r[1]), r[2].as<std::string>(), SecondsField(r[3]),
                     SecondsField(r[4]), r[5].as<std::string>(), r[6].as<std::string>(), r[7].as<std::string>(),
                     r[8].as<std::string>(), r[9].as<int64_t>(), r[10].as<int64_t>(), r[11].as<int64_t>(),
                     r[12].as<int64_t>(), r[13].as<int64_t>()});
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("waste: reading idle runs", e);
  }
}

absl::StatusOr<std::vector<WorkloadHourRecord>> PgInsightWasteRepository::WorkloadSums(
    const WasteFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckWasteFilter(filter));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  pqxx::result rows;
  try {
    pqxx::nontransaction txn(*lease);
    // Summed in numeric, so a sum past int64 is seen and refused below, never wrapped.
    rows =
        txn.exec_params(absl::StrCat("SELECT team, namespace, workload, sum(held_milli_seconds)::text,"
                                     " sum(observed_milli_seconds)::text, sum(active_milli_seconds)::text,"
                                     " sum(sm_observed_milli_seconds)::text, sum(both_minutes)::text,"
                                     " sum(both_held_milli_seconds)::text, sum(both_duty_milli_seconds)::text,"
                                     " sum(both_sm_milli_seconds)::text FROM insight_workload_hours WHERE ",
                                     WasteWhere(txn, filter),
                                     " GROUP BY team, namespace, workload"
                                     " ORDER BY team COLLATE \"C\", namespace COLLATE \"C\", workload COLLATE \"C\""),
                        FormatRfc3339(filter.start), FormatRfc3339(filter.end), filter.cluster, filter.namespace_name);
  } catch (const std::exception& e) {
    return PgError("waste: summing workload hours", e);
  }
  std::vector<WorkloadHourRecord> out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    WorkloadHourRecord h;
    h.hour = filter.start;
    h.team = r[0].as<std::string>();
    h.namespace_name = r[1].as<std::string>();
    h.workload = r[2].as<std::string>();
    int64_t* fields[] = {&h.held_milli_seconds,        &h.observed_milli_seconds, &h.active_milli_seconds,
                         &h.sm_observed_milli_seconds, &h.both_minutes,           &h.both_held_milli_seconds,
                         &h.both_duty_milli_seconds,   &h.both_sm_milli_seconds};
    for (int i = 0; i < 8; ++i) {
      if (!absl::SimpleAtoi(r[3 + i].as<std::string>(), fields[i])) {
        return absl::OutOfRangeError("waste: the sum of workload hours is past int64");
      }
    }
    out.push_back(std::move(h));
  }
  return out;
}

absl::StatusOr<std::vector<WorkloadWasteRecord>> PgInsightWasteRepository::WasteSums(const WasteFilter& filter) const {
  FLEETCAP_RETURN_IF_ERROR(CheckWasteFilter(filter));
  const auto [first_day, end_day] = WholeDays(filter.start, filter.end);
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  pqxx::result rows;
  try {
    pqxx::nontransaction txn(*lease);
    rows = txn.exec_params(WasteSumsSql(txn, filter), FormatRfc3339(filter.start), FormatRfc3339(filter.end),
                           filter.cluster, filter.namespace_name, FormatRfc3339(first_day), FormatRfc3339(end_day));
  } catch (const std::exception& e) {
    return PgError("waste: summing the window", e);
  }
  std::vector<WorkloadWasteRecord> out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    WorkloadWasteRecord w;
    w.time.hour = filter.start;
    w.time.team = r[0].as<std::string>();
    w.time.namespace_name = r[1].as<std::string>();
    w.time.workload = r[2].as<std::string>();
    int64_t* fields[] = {&w.time.held_milli_seconds,
                         &w.time.observed_milli_seconds,
                         &w.time.active_milli_seconds,
                         &w.time.sm_observed_milli_seconds,
                         &w.time.both_minutes,
                         &w.time.both_held_milli_seconds,
                         &w.time.both_duty_milli_seconds,
                         &w.time.both_sm_milli_seconds,
                         &w.wasted_milli_seconds,
                         &w.wasted_cost_micro,
                         &w.run_count};
    for (int i = 0; i < 11; ++i) {
      if (!absl::SimpleAtoi(r[3 + i].as<std::string>(), fields[i])) {
        return absl::OutOfRangeError("waste: a sum of the window is past int64");
      }
    }
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace fleetcap::store

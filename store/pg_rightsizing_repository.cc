#include "store/pg_rightsizing_repository.h"

#include <map>
#include <tuple>

#include "common/status_macros.h"
#include "pqxx/pqxx"
#include "store/pg_time_sql.h"

namespace fleetcap::store {
namespace {

const std::vector<std::string> kColumns = {"cluster",
                                           "namespace",
                                           "workload",
                                           "model",
                                           "kind",
                                           "team",
                                           "current",
                                           "proposed",
                                           "current_milli",
                                           "proposed_milli",
                                           "savings_micro_per_month",
                                           "evidence",
                                           "observed_minutes",
                                           "confidence",
                                           "p95_active_devices",
                                           "p95_activity",
                                           "p99_memory_bytes"};

// `items` as a text[] literal: each element quoted, its quotes and
// backslashes escaped.
std::string TextArray(const std::set<std::string>& items) {
  std::string out = "{";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ",";
    out += "\"";
    for (const char c : item) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += "\"";
  }
  return out + "}";
}

constexpr const char* kRunsSql =
    "SELECT cluster, (extract(epoch FROM lookback_start) * 1e6)::bigint, (extract(epoch FROM lookback_end) * "
    "1e6)::bigint,"
    " (extract(epoch FROM computed_at) * 1e6)::bigint, currency FROM insight_rightsizing_runs"
    " WHERE ($1 = '' OR cluster = $1) ORDER BY cluster COLLATE \"C\"";

// The order is LargestSavingFirst's.
constexpr const char* kRecommendationsSql =
    "SELECT cluster, namespace, workload, model, kind, team, current, proposed, current_milli, proposed_milli,"
    " savings_micro_per_month, evidence, observed_minutes, confidence, p95_active_devices, p95_activity,"
    " p99_memory_bytes FROM insight_rightsizing"
    " WHERE ($1 = '' OR cluster = $1) AND ($2 = '' OR namespace = $2) AND ($3 OR team = ANY ($4::text[]))"
    " ORDER BY cluster COLLATE \"C\", savings_micro_per_month DESC, namespace COLLATE \"C\", workload COLLATE \"C\","
    " model COLLATE \"C\", kind COLLATE \"C\"";

RightsizingRecord RecordOf(const pqxx::row& row) {
  RightsizingRecord r;
  r.namespace_name = row[1].as<std::string>();
  r.workload = row[2].as<std::string>();
  r.model = row[3].as<std::string>();
  r.kind = row[4].as<std::string>();
  r.team = row[5].as<std::string>();
  r.current = row[6].as<std::string>();
  r.proposed = row[7].as<std::string>();
  r.current_milli = row[8].as<int64_t>();
  r.proposed_milli = row[9].as<int64_t>();
  r.savings_micro_per_month = row[10].as<int64_t>();
  r.evidence = row[11].as<std::string>();
  r.observed_minutes = row[12].as<int64_t>();
  r.confidence = row[13].as<std::string>();
  r.p95_active_devices = row[14].as<double>();
  r.p95_activity = row[15].as<double>();
  r.p99_memory_bytes = row[16].as<int64_t>();
  return r;
}

}  // namespace

absl::Status PgRightsizingRepository::Replace(const RightsizingRun& run) {
  FLEETCAP_RETURN_IF_ERROR(ValidateRightsizingRun(run));
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::work txn(*lease);
    // The run's row first: two replacing one cluster at once take turns on it.
    txn.exec_params(
        "INSERT INTO insight_rightsizing_runs (cluster, lookback_start, lookback_end, computed_at, currency)"
        " VALUES ($1, 'epoch'::timestamptz + $2 * interval '1 microsecond',"
        " 'epoch'::timestamptz + $3 * interval '1 microsecond', 'epoch'::timestamptz + $4 * interval '1 microsecond', "
        "$5)"
        " ON CONFLICT (cluster) DO UPDATE SET lookback_start = excluded.lookback_start,"
        " lookback_end = excluded.lookback_end, computed_at = excluded.computed_at, currency = excluded.currency",
        run.cluster, absl::ToUnixMicros(run.lookback_start), absl::ToUnixMicros(run.lookback_end),
        absl::ToUnixMicros(run.computed_at), run.currency);
    txn.exec_params("DELETE FROM insight_rightsizing WHERE cluster = $1", run.cluster);
    if (!run.recommendations.empty()) {
      pqxx::stream_to copy(txn, "insight_rightsizing", kColumns);
      for (const RightsizingRecord& r : run.recommendations) {
        copy << std::make_tuple(run.cluster, r.namespace_name, r.workload, r.model, r.kind, r.team, r.current,
                                r.proposed, r.current_milli, r.proposed_milli, r.savings_micro_per_month, r.evidence,
                                r.observed_minutes, r.confidence, r.p95_active_devices, r.p95_activity,
                                r.p99_memory_bytes);
      }
      copy.complete();
    }
    txn.commit();
    return absl::OkStatus();
  } catch (const std::exception& e) {
    return PgError("rightsizing: storing a cluster's recommendations", e);
  }
}

absl::StatusOr<std::vector<RightsizingRun>> PgRightsizingRepository::Latest(const RightsizingFilter& filter) const {
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  try {
    pqxx::read_transaction txn(*lease);
    std::vector<RightsizingRun> out;
    std::map<std::string, size_t> index;
    for (const auto& row : txn.exec_params(kRunsSql, filter.cluster)) {
      index[row[0].as<std::string>()] = out.size();
      out.push_back({row[0].as<std::string>(),
                     MicrosField(row[1]),
                     MicrosField(row[2]),
                     MicrosField(row[3]),
                     row[4].as<std::string>(),
                     {}});
    }
    const pqxx::result rows =
        txn.exec_params(kRecommendationsSql, filter.cluster, filter.namespace_name, !filter.teams.has_value(),
                        TextArray(filter.teams.value_or(std::set<std::string>{})));
    for (const auto& row : rows) {
      const auto it = index.find(row[0].as<std::string>());
      if (it != index.end()) out[it->second].recommendations.push_back(RecordOf(row));
    }
    return out;
  } catch (const std::exception& e) {
    return PgError("rightsizing: reading the latest recommendations", e);
  }
}

}  // namespace fleetcap::store

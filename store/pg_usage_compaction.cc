#include "store/pg_usage_compaction.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/status_macros.h"
#include "pqxx/pqxx"

namespace fleetcap::store {
namespace {

// The due hours that ended two hours ago and more, newest first, of the
// clusters not in $1; a few at a time, as RFC 3339 text in UTC.
constexpr const char* kDueSql =
    "SELECT cluster, to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') FROM usage_hours_to_compact"
    " WHERE hour <= now() - interval '3 hours' AND cluster <> ALL ($1::text[]) ORDER BY hour DESC, cluster LIMIT 32";

// `items` as a text[] literal: each element quoted, its quotes and
// backslashes escaped.
std::string TextArray(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ",";
    out += "\"";
    for (const char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += "\"";
  }
  return out + "}";
}

// Rebuilds the indexes at rest of the days due (fleetcap_usage_day_to_reindex),
// oldest first, until `deadline` (a rebuild begun is finished). An index
// left invalid by a rebuild that failed (`..._ccnew`) is dropped first, or
// every later write would keep it up for nothing. The marks seen are
// cleared after the rebuild; those of a move meanwhile stay.
void ReindexDueDays(pqxx::connection& conn, const Clock& clock, absl::Duration deadline, UsageCompaction& done) {
  while (clock.Monotonic() < deadline) {
    pqxx::nontransaction txn(conn);
    const pqxx::row due =
        txn.exec1("SELECT day::text, partition_name, marked_until::text FROM fleetcap_usage_day_to_reindex()");
    if (due[0].is_null()) return;
    const std::string day = due[0].as<std::string>();
    const std::string partition = due[1].as<std::string>();
    if (!txn.exec_params1("SELECT to_regclass($1) IS NULL", partition)[0].as<bool>()) {
      for (const auto& r :
           txn.exec_params("SELECT quote_ident(c.relname) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                           " WHERE i.indrelid = to_regclass($1) AND NOT i.indisvalid AND c.relname ~ '_ccnew[0-9]*$'",
                           partition)) {
        txn.exec("DROP INDEX CONCURRENTLY IF EXISTS " + r[0].as<std::string>());
      }
      txn.exec("REINDEX TABLE CONCURRENTLY " + txn.quote_name(partition));
      ++done.days_reindexed;
    }
    // (A day retention dropped has nothing to rebuild: its marks go.)
    txn.exec_params("DELETE FROM usage_series_days_to_reindex WHERE day = $1::date AND marked_at <= $2::timestamptz",
                    day, due[2].as<std::string>());
  }
}

}  // namespace

absl::StatusOr<UsageCompaction> PgUsageCompaction::Compact(const Clock& clock, absl::Duration budget) {
  const absl::Duration deadline = clock.Monotonic() + budget;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  UsageCompaction done;
  std::vector<std::string> busy;
  try {
    for (;;) {
      std::vector<std::pair<std::string, std::string>> due;
      {
        pqxx::nontransaction txn(*lease);
        for (const auto& r : txn.exec_params(kDueSql, TextArray(busy))) {
          due.emplace_back(r[0].as<std::string>(), r[1].as<std::string>());
        }
      }
      if (due.empty()) break;
      const UsageCompaction before = done;
      for (const auto& [cluster, hour] : due) {
        if (clock.Monotonic() >= deadline) {
          done.complete = false;
          return done;
        }
        if (std::find(busy.begin(), busy.end(), cluster) != busy.end()) continue;
        pqxx::work txn(*lease);
        if (!txn.exec_params1("SELECT pg_try_advisory_xact_lock(hashtext('usage_compaction'), hashtext($1))",
                              cluster)[0]
                 .as<bool>()) {
          busy.push_back(cluster);
          ++done.busy_clusters;
          continue;
        }
        done.minutes +=
            txn.exec_params1("SELECT fleetcap_compact_usage_hour($1, $2::timestamptz)", cluster, hour)[0].as<int64_t>();
        txn.commit();
        ++done.hours;
      }
      // Neither moved nor learnt of a busy cluster: the next batch would be this one.
      if (done.hours == before.hours && done.busy_clusters == before.busy_clusters) break;
    }
    ReindexDueDays(*lease, clock, deadline, done);
    return done;
  } catch (const std::exception& e) {
    return PgError("moving the usage minutes to rest", e);
  }
}

}  // namespace fleetcap::store

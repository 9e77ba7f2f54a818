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
      if (due.empty()) return done;
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
      if (done.hours == before.hours && done.busy_clusters == before.busy_clusters) return done;
    }
  } catch (const std::exception& e) {
    return PgError("moving the usage minutes to rest", e);
  }
}

}  // namespace fleetcap::store

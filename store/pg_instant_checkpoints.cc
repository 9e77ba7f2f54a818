#include "store/pg_instant_checkpoints.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "pqxx/pqxx"
#include "store/pg_instant_reads.h"

namespace fleetcap::store {
namespace {

// Instants built in one transaction: the cluster's writers wait on its lock
// meanwhile, so a few, then the lock is given back.
constexpr int kInstantsPerTransaction = 8;

// The cluster's instants at multiples of $3 seconds (from the Unix epoch)
// between its earliest fact and the earlier of its horizon and $2, without
// a checkpoint, newest first, at most $4, as microseconds since the epoch.
constexpr const char* kMissingSql = R"sql(
  WITH span AS (
    SELECT least((SELECT horizon FROM fleet_now_horizon WHERE cluster = $1), $2::timestamptz) AS latest,
           least((SELECT min(held_from) FROM holds WHERE cluster = $1),
                 (SELECT min(in_service_from) FROM devices WHERE cluster = $1)) AS earliest)
  SELECT (extract(epoch FROM g) * 1000000)::bigint
    FROM span, generate_series(date_bin(make_interval(secs => $3), latest, 'epoch'), earliest,
                               -make_interval(secs => $3)) AS g
   WHERE NOT EXISTS (SELECT 1 FROM instant_checkpoints i WHERE i.cluster = $1 AND i.at = g)
   ORDER BY g DESC LIMIT $4)sql";

// Writes the summary at `at` of `cluster` as its checkpoint there.
void Build(pqxx::transaction_base& txn, const std::string& cluster, absl::Time at) {
  const std::string instant = FormatRfc3339(at);
  const std::string key = absl::StrCat(txn.quote(cluster), ", ", txn.quote(instant), "::timestamptz");
  std::vector<std::string> rows;
  for (const ModelCount& m : SummaryAtInstant(txn, cluster, at)) {
    rows.push_back(absl::StrCat("(", key, ", ", txn.quote(m.model), ", ", m.devices, ", ", m.held_milli, ")"));
  }
  // Rows of a checkpoint forgotten earlier at this instant go first.
  txn.exec_params("DELETE FROM summary_checkpoints WHERE cluster = $1 AND at = $2::timestamptz", cluster, instant);
  txn.exec_params("DELETE FROM holder_checkpoints WHERE cluster = $1 AND at = $2::timestamptz", cluster, instant);
  if (!rows.empty()) {
    txn.exec(absl::StrCat("INSERT INTO summary_checkpoints (cluster, at, model, devices, held_milli) VALUES ",
                          absl::StrJoin(rows, ", ")));
  }
  rows.clear();
  for (const PodTeamEvidence& h : HoldersAtInstant(txn, cluster, at)) {
    rows.push_back(absl::StrCat("(", key, ", ", txn.quote(h.namespace_name), ", ", txn.quote(h.team_label), ", ",
                                h.held_milli, ")"));
  }
  if (!rows.empty()) {
    txn.exec(absl::StrCat("INSERT INTO holder_checkpoints (cluster, at, namespace, team, held_milli) VALUES ",
                          absl::StrJoin(rows, ", ")));
  }
  txn.exec_params("INSERT INTO instant_checkpoints (cluster, at) VALUES ($1, $2::timestamptz)", cluster, instant);
}

}  // namespace

absl::StatusOr<CheckpointFill> PgInstantCheckpoints::Fill(const Clock& clock, absl::Duration budget) {
  const absl::Time now = clock.Now();
  const absl::Duration deadline = clock.Monotonic() + budget;
  FLEETCAP_ASSIGN_OR_RETURN(auto lease, pool_->Acquire());
  CheckpointFill fill;
  try {
    std::vector<std::string> clusters;
    {
      pqxx::nontransaction txn(*lease);
      for (const auto& r : txn.exec("SELECT cluster FROM clusters ORDER BY cluster")) {
        clusters.push_back(r[0].as<std::string>());
      }
    }
    // In rounds, a transaction of each unfinished cluster a round, so that the
    // budget reaches every cluster's recent past before any cluster's oldest.
    while (!clusters.empty()) {
      std::vector<std::string> unfinished;
      for (const std::string& cluster : clusters) {
        if (clock.Monotonic() >= deadline) {
          fill.complete = false;
          return fill;
        }
        pqxx::work txn(*lease);
        if (!txn.exec_params1("SELECT pg_try_advisory_xact_lock(hashtext('instant_checkpoints'), hashtext($1))",
                              cluster)[0]
                 .as<bool>()) {
          ++fill.busy_clusters;
          continue;
        }
        // Read after the lock: every change a writer committed before it is seen.
        const auto missing = txn.exec_params(kMissingSql, cluster, FormatRfc3339(now), absl::ToInt64Seconds(every_),
                                             kInstantsPerTransaction + 1);
        int built = 0;
        for (const auto& r : missing) {
          if (built == kInstantsPerTransaction || clock.Monotonic() >= deadline) break;
          Build(txn, cluster, absl::FromUnixMicros(r[0].as<int64_t>()));
          ++built;
        }
        txn.commit();
        fill.built += built;
        if (static_cast<int>(missing.size()) > built) unfinished.push_back(cluster);
      }
      clusters = std::move(unfinished);
    }
  } catch (const std::exception& e) {
    return PgError("building the fleet summary's checkpoints", e);
  }
  return fill;
}

}  // namespace fleetcap::store

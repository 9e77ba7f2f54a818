#pragma once
// Writes canonical series into the store, exactly once. In one transaction
// per batch: new samples are streamed (COPY) into telemetry_samples, where
// the key (series, timestamp) makes a sample already stored a no-op; then
// every minute the batch touched is recomputed from all stored samples of
// its device (minute_aggregator.h) and upserted into usage_minute (COPY
// into a staging table, then INSERT .. ON CONFLICT). Re-sending a batch,
// re-ingesting a window or restarting mid-stream therefore yields identical
// rows, and a late or out-of-order sample updates its minute.
//
// Batches of one cluster are serialised by a transaction-scoped advisory
// lock, so two writers never recompute the same minute from different
// snapshots. Thread-compatible: one writer per thread.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "common/pg_pool.h"
#include "pqxx/transaction_base"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/minute_aggregator.h"

namespace fleetcap::telemetry {

struct WriteResult {
  int64_t samples_offered = 0;
  int64_t samples_new = 0;        // not stored before (the rest are replays)
  int64_t rows_upserted = 0;      // usage_minute rows written
};

class UsageWriter {
 public:
  UsageWriter(PgPool* pool, std::string cluster) : pool_(pool), cluster_(std::move(cluster)) {}

  // All or nothing: on error nothing of the batch is stored, so the caller
  // may retry it whole. UNAVAILABLE when the database cannot be reached.
  absl::StatusOr<WriteResult> Write(const std::vector<CanonicalSeries>& batch);

  // Stored usage_minute rows written directly (the pull path, whose minutes
  // Prometheus already aggregated); upserted, so idempotent.
  absl::StatusOr<int64_t> UpsertMinuteRows(const std::vector<MinuteRow>& rows);

  // The stored identity (pod uid, node, model joined from the inventory)
  // of each series, registering new ones; points are not copied.
  absl::StatusOr<std::vector<StoredSeries>> Identify(const std::vector<CanonicalSeries>& series);

  const std::string& cluster() const { return cluster_; }

 private:
  struct SeriesInfo {
    int64_t id;
    std::string pod_uid, node, model;
  };
  using SeriesId = std::tuple<std::string, std::string, std::string, Field>;  // device, ns, pod, field

  absl::Status ResolveSeries(pqxx::connection& conn, const std::vector<CanonicalSeries>& batch);
  absl::Status EnsurePartitions(pqxx::connection& conn, const std::vector<int64_t>& minutes);

  PgPool* pool_;
  std::string cluster_;
  std::map<SeriesId, SeriesInfo> series_;  // cache of telemetry_series
  std::set<int64_t> days_with_partition_;  // day numbers since the epoch
};

// Upserts `rows` inside `txn` (COPY into a staging table + INSERT .. ON CONFLICT).
int64_t UpsertMinuteRowsInTxn(pqxx::transaction_base& txn, const std::string& cluster, const std::vector<MinuteRow>& rows);

}  // namespace fleetcap::telemetry

#pragma once
// Writes per-minute usage rows into the store.
//
// The remote_write path hands over closed minutes (minute_window.h): their
// rows go straight into usage_minute by COPY (an INSERT .. ON CONFLICT
// upsert only when some row is already there, as after a lost log), in the
// same transaction as each device's closed-through bound, the counters'
// carried samples and the sample log's checkpoint. A crash at any point
// therefore leaves either all of it or none, and the log replayed from the
// checkpoint rebuilds exactly the minutes that were not written.
//
// The pull path writes Prometheus-aggregated rows with an upsert, as it
// fetches minutes inside the settle window again.
//
// Series join the inventory once, when first seen (telemetry_series): the
// pod's uid by namespace and name, the device's node and model. Batches of
// one cluster are serialised by a transaction-scoped advisory lock.
// Thread-compatible: one writer per thread.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "common/pg_pool.h"
#include "pqxx/dbtransaction"
#include "pqxx/transaction"
#include "pqxx/transaction_base"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/minute_aggregator.h"
#include "ingest/telemetry/minute_window.h"

namespace fleetcap::telemetry {

// What the remote_write path stored last, for a restart.
struct PushState {
  std::vector<DeviceProgress> devices;
  std::optional<int64_t> checkpoint;  // in the positions of `log_id`'s log
  std::string log_id;
};

class UsageWriter {
 public:
  UsageWriter(PgPool* pool, std::string cluster) : pool_(pool), cluster_(std::move(cluster)) {}

  // The rows of `batch`'s closed minutes, its devices' progress and its
  // checkpoint of the log `log_id`, all or nothing; returns the rows
  // written. UNAVAILABLE when the database cannot be reached.
  absl::StatusOr<int64_t> WriteClosed(const ClosedBatch& batch, const std::string& log_id);
  absl::StatusOr<PushState> LoadPushState();

  // Rows inserted by COPY, or upserted when one is already stored.
  absl::StatusOr<int64_t> WriteMinuteRows(const std::vector<MinuteRow>& rows);

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
  // One transaction under the cluster's lock, once the partitions `rows`
  // need exist; `body` writes and returns the rows written.
  absl::StatusOr<int64_t> InClusterTransaction(const std::vector<MinuteRow>& rows, const char* what,
                                               const std::function<int64_t(pqxx::work&)>& body);

  PgPool* pool_;
  std::string cluster_;
  std::map<SeriesId, SeriesInfo> series_;  // cache of telemetry_series
  std::set<int64_t> days_with_partition_;  // day numbers since the epoch
};

// Upserts `rows` inside `txn` (COPY into a staging table + INSERT .. ON CONFLICT).
int64_t UpsertMinuteRowsInTxn(pqxx::transaction_base& txn, const std::string& cluster, const std::vector<MinuteRow>& rows);
// COPY straight into usage_minute inside a savepoint; the upsert above when
// a row exists already.
int64_t InsertMinuteRowsInTxn(pqxx::dbtransaction& txn, const std::string& cluster, const std::vector<MinuteRow>& rows);

}  // namespace fleetcap::telemetry

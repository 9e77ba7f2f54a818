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
// A row the store cannot hold costs only itself: a minute before the
// retention horizon (its partition is dropped) or past year 9999 is set
// aside before writing, and when the store refuses a batch for its data
// (SQLSTATE classes 22 and 23) the rows are written one by one and those it
// refuses are set aside. Set aside means: into the quarantine, in the same
// transaction as the rest, counted in fleetcap_telemetry_quarantined_total
// and logged. Connection failures are returned (UNAVAILABLE) for the caller
// to retry: nothing is set aside because the store was away.
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
#include "common/clock.h"
#include "common/pg_pool.h"
#include "pqxx/dbtransaction"
#include "pqxx/transaction"
#include "pqxx/transaction_base"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/minute_aggregator.h"
#include "ingest/telemetry/minute_window.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "store/quarantine_repository.h"

namespace fleetcap::telemetry {

// What the remote_write path stored last, for a restart.
struct PushState {
  std::vector<DeviceProgress> devices;
  std::optional<int64_t> checkpoint;  // in the positions of `log_id`'s log
  std::string log_id;
};

struct UsageWriterOptions {
  int retention_days = 400;            // as usage_minute's partitions are kept
  TelemetryMetrics* metrics = nullptr;  // counts the rows set aside, when given
  const Clock* clock = nullptr;        // the retention horizon's now; nullptr: the real one
};

class UsageWriter {
 public:
  UsageWriter(PgPool* pool, std::string cluster, UsageWriterOptions options = {})
      : pool_(pool), cluster_(std::move(cluster)), options_(options) {}

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
  // Writes `rows` with `write_rows` and then `also` in one transaction under
  // the cluster's lock, once their partitions exist, setting aside (as
  // `source`) the rows that cannot be stored. Returns the rows written.
  using RowsWriter = std::function<int64_t(pqxx::dbtransaction&, const std::vector<MinuteRow>&)>;
  absl::StatusOr<int64_t> WriteSettingAside(std::vector<MinuteRow> rows, const char* source, const char* what,
                                            const RowsWriter& write_rows,
                                            const std::function<void(pqxx::work&)>& also = nullptr);
  // `rows` without those no partition can hold, which go to `set_aside`.
  struct SetAsideRow {
    store::QuarantineRecord record;
    const char* label;  // the metric's bounded `reason`
  };
  std::vector<MinuteRow> WithoutUnstorable(std::vector<MinuteRow> rows, const char* source,
                                           std::vector<SetAsideRow>* set_aside) const;
  SetAsideRow SetAside(const MinuteRow& row, const char* source, const char* label, std::string reason) const;
  void Count(const std::vector<SetAsideRow>& set_aside) const;
  absl::Time Now() const { return (options_.clock != nullptr ? options_.clock : RealClock::Instance())->Now(); }

  PgPool* pool_;
  std::string cluster_;
  UsageWriterOptions options_;
  std::map<SeriesId, SeriesInfo> series_;  // cache of telemetry_series
  std::set<int64_t> days_with_partition_;  // day numbers since the epoch
};

// Upserts `rows` inside `txn` (COPY into a staging table + INSERT .. ON CONFLICT).
int64_t UpsertMinuteRowsInTxn(pqxx::transaction_base& txn, const std::string& cluster, const std::vector<MinuteRow>& rows);
// COPY straight into usage_minute inside a savepoint; the upsert above when
// a row exists already.
int64_t InsertMinuteRowsInTxn(pqxx::dbtransaction& txn, const std::string& cluster, const std::vector<MinuteRow>& rows);

}  // namespace fleetcap::telemetry

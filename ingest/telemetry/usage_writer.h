#pragma once
// Writes per-minute usage from canonical series, through the store's usage
// repository (store/usage_repository.h).
//
// The remote_write path hands over closed minutes (minute_window.h): their
// rows are written in one transaction with each device's closed-through
// bound, the counters' carried samples and the sample log's checkpoint. A
// crash at any point therefore leaves either all of it or none, and the log
// replayed from the checkpoint rebuilds exactly the minutes that were not
// written.
//
// The pull path writes Prometheus-aggregated rows, as it fetches minutes
// inside the settle window again (a row already stored is replaced).
//
// A row the store cannot hold costs only itself: the repository sets it
// aside into the quarantine, in the same transaction as the rest; this
// writer counts it in fleetcap_telemetry_quarantined_total and logs it.
// Connection failures are returned (UNAVAILABLE) for the caller to retry:
// nothing is set aside because the store was away.
//
// Series join the inventory once, when first seen; their identities are
// kept here so that each is asked of the store about once an hour: asking
// again keeps the series' last_seen, by which retention deletes the series
// of pods long gone (store/usage_partitions.h).
// Thread-compatible: one writer per thread.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/minute_aggregator.h"
#include "ingest/telemetry/minute_window.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "store/usage_repository.h"

namespace fleetcap::telemetry {

// What the remote_write path stored last, for a restart.
struct PushState {
  std::vector<DeviceProgress> devices;
  std::optional<int64_t> checkpoint;  // in the positions of `log_id`'s log
  std::string log_id;
};

struct UsageWriterOptions {
  TelemetryMetrics* metrics = nullptr;  // counts the rows set aside, when given
  const Clock* clock = nullptr;         // when the identities kept are forgotten; nullptr: the real one
};

// How long the identities of series are kept before they are asked of the store again.
inline constexpr absl::Duration kSeriesIdentitiesKept = absl::Hours(1);

class UsageWriter {
 public:
  // `store` must outlive the writer.
  UsageWriter(store::UsageWriteRepository* store, std::string cluster, UsageWriterOptions options = {})
      : store_(store), cluster_(std::move(cluster)), options_(options) {}

  // The rows of `batch`'s closed minutes, its devices' progress and its
  // checkpoint of the log `log_id`, all or nothing; returns the rows
  // written. UNAVAILABLE when the database cannot be reached.
  absl::StatusOr<int64_t> WriteClosed(const ClosedBatch& batch, const std::string& log_id);
  absl::StatusOr<PushState> LoadPushState();

  // Rows of the remote_write path, replacing those already stored.
  absl::StatusOr<int64_t> WriteMinuteRows(const std::vector<MinuteRow>& rows);

  // Rows of the pull path (minutes Prometheus already aggregated), replacing
  // those already stored, so idempotent.
  absl::StatusOr<int64_t> UpsertMinuteRows(const std::vector<MinuteRow>& rows);

  // The stored identity (pod uid, node, model joined from the inventory)
  // of each series, registering new ones; points are not copied.
  absl::StatusOr<std::vector<StoredSeries>> Identify(const std::vector<CanonicalSeries>& series);

  const std::string& cluster() const { return cluster_; }

 private:
  using SeriesId = std::tuple<std::string, std::string, std::string, Field>;  // device, ns, pod, field

  // The rows written; those set aside are counted and logged.
  absl::StatusOr<int64_t> Counted(absl::StatusOr<store::MinuteWriteResult> result) const;

  store::UsageWriteRepository* store_;
  std::string cluster_;
  UsageWriterOptions options_;
  std::map<SeriesId, store::SeriesIdentity> series_;  // identities already known
  absl::Duration series_since_;                       // when series_ began to fill, on the clock's Monotonic()
};

}  // namespace fleetcap::telemetry

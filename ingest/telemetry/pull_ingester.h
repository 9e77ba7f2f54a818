#pragma once
// The pull path: per-minute figures computed by Prometheus with
// query_range, one cycle at a time.
//
// For each mapped gauge M, Prometheus evaluates count/sum/max/min_over_time
// (M[59999ms]) at m + 59.999 s for every minute m: exactly the samples in
// [m, m + 60 s) at Prometheus' millisecond resolution. A counter is read as
// its last value per minute, and a minute's increase is the difference
// from the previous minute's (a fall is a reset). Windows are chunked so no
// series exceeds `max_points` points (Prometheus refuses over 11,000).
//
// Watermarks: per cluster and metric, minutes before `through` are final.
// A cycle fetches [through, now's minute), stores the rows, and moves
// `through` to the start of the settle window, so minutes inside it are
// fetched again while late samples may still arrive. --since backfills.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/telemetry/metric_mapping.h"
#include "ingest/telemetry/minute_answers.h"
#include "ingest/telemetry/normaliser.h"
#include "ingest/telemetry/prometheus_client.h"
#include "ingest/telemetry/sample_time_window.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "ingest/telemetry/usage_writer.h"
#include "store/usage_repository.h"

namespace fleetcap::telemetry {

struct PullOptions {
  absl::Duration settle = absl::Minutes(5);
  int max_points = 11'000;
  // Start here when a metric has no watermark yet, or earlier than its
  // watermark (a backfill). InfinitePast: one hour before now.
  absl::Time since = absl::InfinitePast();
  // Stop at this minute instead of now's (a bounded backfill, taken as
  // given even when ahead of now).
  absl::Time until = absl::InfiniteFuture();
  // Minutes outside it (as a Prometheus may answer) are dropped and counted.
  SampleTimeWindow window;
};

struct PullReport {
  int64_t queries = 0;
  int64_t chunks = 0;
  int64_t rows = 0;
  absl::Time from, to;  // the window fetched
};

class PullIngester {
 public:
  // Everything must outlive the ingester. `store` keeps the watermarks.
  PullIngester(RangeQuerier* client, const MetricMapping* mapping, UsageWriter* writer,
               store::UsageWriteRepository* store, TelemetryMetrics* metrics, const Clock* clock, PullOptions options);

  absl::StatusOr<PullReport> RunOnce();

 private:
  // One series' answers to the per-minute queries, by evaluation minute.
  struct Collected {
    Labels labels;
    std::map<int64_t, double> count, sum, max, min, last;
  };
  // What a chunk yields before it is stored.
  struct Chunk {
    std::vector<CanonicalSeries> described;
    std::vector<StatSeries> stats;  // in the order of `described`
    int64_t received = 0;
    DropCounts drops;
  };

  // Fetches [from, to), stores its rows and returns how many.
  absl::StatusOr<int64_t> FetchChunk(absl::Time from, absl::Time to, PullReport* report);
  // The answers of metric `name` over [from, to), by series.
  absl::StatusOr<std::map<std::string, Collected>> QueryMinutes(const std::string& name, const MetricRule& rule,
                                                                absl::Time from, absl::Time to, PullReport* report);
  static MinuteAnswers AnswersOf(const Collected& c, int64_t minute_ms);
  // Adds the usable minutes of `c` from `from` on to `chunk`, counting the rest.
  void AddSeries(const std::string& name, const MetricRule& rule, const Collected& c, absl::Time from, absl::Time now,
                 Chunk* chunk) const;
  absl::StatusOr<int64_t> StoreChunk(Chunk chunk, PullReport* report);
  absl::StatusOr<absl::Time> ReadWatermark();
  absl::Status WriteWatermark(absl::Time through);

  RangeQuerier* client_;
  const MetricMapping* mapping_;
  Normaliser normaliser_;
  UsageWriter* writer_;
  store::UsageWriteRepository* store_;
  TelemetryMetrics* metrics_;
  const Clock* clock_;
  PullOptions options_;
  bool backfilled_ = false;
  std::vector<std::string> metric_names_;  // sorted
};

}  // namespace fleetcap::telemetry

#pragma once
// The remote_write path behind the receiver:
//
//   Accept (a receiver thread)   the request's body goes into the sample
//                                log; answered once the log is fsync'd
//                                (group commit across concurrent requests)
//   apply thread                 durable records, in log order, into the
//                                minute window; closes due minutes
//   writer thread                closed minutes to the store, with the
//                                log checkpoint; old segments deleted
//
// Backpressure instead of loss: Accept answers RESOURCE_EXHAUSTED (the
// receiver's 503, Prometheus retries) when the records not yet aggregated
// or the log past the store's checkpoint grow over their bounds, as when
// PostgreSQL is away for long. Until then PostgreSQL being away delays rows,
// not acknowledgements.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/telemetry/minute_window.h"
#include "ingest/telemetry/normaliser.h"
#include "ingest/telemetry/remote_write_decoder.h"
#include "ingest/telemetry/sample_log.h"
#include "ingest/telemetry/sample_time_window.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "ingest/telemetry/usage_writer.h"

namespace fleetcap::telemetry {

struct PushPipelineOptions {
  absl::Duration settle = absl::Minutes(5);        // minute_window.h
  int64_t max_queued_samples = 4'000'000;          // durable, not yet aggregated
  int64_t max_unwritten_bytes = int64_t{1} << 30;  // log past the store's checkpoint
  absl::Duration close_every = absl::Milliseconds(250);
  absl::Duration retry_every = absl::Seconds(1);  // a failed store write
  // Applied again to the log when it is replayed, as a log written before
  // the window was checked may hold samples outside it.
  SampleTimeWindow window;
  WindowLimits limits;  // devices and series held in memory
};

class PushPipeline {
 public:
  // Restores the store's progress, replays the log from its checkpoint,
  // then starts the threads. Everything given must outlive the pipeline.
  static absl::StatusOr<std::unique_ptr<PushPipeline>> Start(SampleLog* log, UsageWriter* writer,
                                                             const Normaliser* normaliser, TelemetryMetrics* metrics,
                                                             const Clock* clock, PushPipelineOptions options);
  // Aggregates what is durable and writes what is due (open minutes stay in
  // the log for the next start).
  ~PushPipeline();

  // Logs one request, `body` decoded as `decoded`; OK once durable.
  absl::Status Accept(absl::string_view body, DecodedWrite decoded);

 private:
  struct Record {
    LogSpan span;
    std::vector<CanonicalSeries> series;
    int64_t samples;
  };
  PushPipeline(SampleLog* log, UsageWriter* writer, TelemetryMetrics* metrics, const Clock* clock,
               PushPipelineOptions options);
  void ApplyLoop();
  void WriteLoop();
  void Hand(ClosedBatch batch);  // to the writer

  SampleLog* const log_;
  UsageWriter* const writer_;
  TelemetryMetrics* const metrics_;
  const Clock* const clock_;
  const PushPipelineOptions options_;
  MinuteWindow window_;  // the apply thread's

  std::mutex mu_;
  std::condition_variable applicable_, writable_;
  std::deque<Record> records_;       // in log order; guarded by mu_
  int64_t queued_samples_ = 0;       // guarded by mu_
  int64_t durable_ = 0;              // what Accept saw durable; guarded by mu_
  std::vector<ClosedBatch> closed_;  // guarded by mu_
  int64_t written_checkpoint_ = 0;   // guarded by mu_
  bool stopping_ = false;            // guarded by mu_
  bool apply_done_ = false;          // guarded by mu_
  std::thread apply_thread_, write_thread_;
};

}  // namespace fleetcap::telemetry

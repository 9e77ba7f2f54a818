#pragma once
// Between the remote_write receiver and the store: requests wait here for
// one writer thread, which stores several at once in one transaction and
// then answers each. Bounded in samples: when the store cannot keep up the
// queue fills and Submit refuses (the receiver answers 429, Prometheus keeps
// the data in its WAL and retries). A failed write fails every request of
// the batch (503): none was acknowledged, all are retried whole.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "ingest/telemetry/usage_writer.h"

namespace fleetcap::telemetry {

struct WriteQueueOptions {
  int64_t max_queued_samples = 2'000'000;
  int64_t max_batch_samples = 200'000;  // per transaction
};

class WriteQueue {
 public:
  WriteQueue(UsageWriter* writer, TelemetryMetrics* metrics, const std::string& source,
             WriteQueueOptions options = {});
  ~WriteQueue();  // stores what is queued, then stops

  // The future resolves once the series are durable (OK) or failed.
  // RESOURCE_EXHAUSTED at once when the queue is full.
  absl::Status Submit(std::vector<CanonicalSeries> series, int64_t samples, std::future<absl::Status>* done);

 private:
  struct Item {
    std::vector<CanonicalSeries> series;
    int64_t samples;
    std::promise<absl::Status> done;
  };
  void Run();

  UsageWriter* writer_;
  TelemetryMetrics* metrics_;
  const std::string source_;
  const WriteQueueOptions options_;
  std::mutex mu_;
  std::condition_variable work_;
  std::deque<Item> items_;  // guarded by mu_
  int64_t queued_samples_ = 0;  // guarded by mu_
  bool stopping_ = false;       // guarded by mu_
  std::thread thread_;
};

}  // namespace fleetcap::telemetry

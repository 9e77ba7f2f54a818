#include "ingest/telemetry/write_queue.h"

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/logging.h"

namespace fleetcap::telemetry {

WriteQueue::WriteQueue(UsageWriter* writer, TelemetryMetrics* metrics, const std::string& source,
                       WriteQueueOptions options)
    : writer_(writer), metrics_(metrics), source_(source), options_(options), thread_([this] { Run(); }) {}

WriteQueue::~WriteQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_.notify_all();
  thread_.join();
}

absl::Status WriteQueue::Submit(std::vector<CanonicalSeries> series, int64_t samples,
                                std::future<absl::Status>* done) {
  Item item{std::move(series), samples, {}};
  *done = item.done.get_future();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return absl::UnavailableError("shutting down");
    // One oversized request is still let through an empty queue, so a
    // request larger than the bound is not refused forever.
    if (queued_samples_ > 0 && queued_samples_ + samples > options_.max_queued_samples) {
      return absl::ResourceExhaustedError(
          absl::StrCat("write queue full: ", queued_samples_, " samples waiting for the store"));
    }
    queued_samples_ += samples;
    metrics_->QueueSamples().Set(static_cast<double>(queued_samples_));
    items_.push_back(std::move(item));
  }
  work_.notify_one();
  return absl::OkStatus();
}

void WriteQueue::Run() {
  auto log = Logger("telemetry");
  for (;;) {
    std::vector<Item> batch;
    int64_t batch_samples = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_.wait(lock, [this] { return stopping_ || !items_.empty(); });
      if (items_.empty()) return;  // stopping, nothing left
      while (!items_.empty() && (batch.empty() || batch_samples + items_.front().samples <= options_.max_batch_samples)) {
        batch_samples += items_.front().samples;
        batch.push_back(std::move(items_.front()));
        items_.pop_front();
      }
    }
    std::vector<CanonicalSeries> all;
    for (auto& item : batch) {
      for (auto& s : item.series) all.push_back(std::move(s));
    }
    const absl::Time began = absl::Now();
    auto result = writer_->Write(all);
    metrics_->WriteLatency().Observe(absl::ToDoubleSeconds(absl::Now() - began));
    if (result.ok()) {
      metrics_->Accepted(source_).Increment(static_cast<double>(result->samples_new));
      metrics_->Duplicates(source_).Increment(static_cast<double>(result->samples_offered - result->samples_new));
      metrics_->MinuteRows().Increment(static_cast<double>(result->rows_upserted));
    } else {
      log->warn("storing {} samples of {} requests failed: {}", batch_samples, batch.size(),
                result.status().ToString());
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      queued_samples_ -= batch_samples;
      metrics_->QueueSamples().Set(static_cast<double>(queued_samples_));
    }
    for (auto& item : batch) item.done.set_value(result.ok() ? absl::OkStatus() : result.status());
  }
}

}  // namespace fleetcap::telemetry

#include "ingest/telemetry/push_pipeline.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"

namespace fleetcap::telemetry {
namespace {

constexpr const char* kSource = "remote_write";
// Records were checked when accepted; replay decodes them without the
// receiver's per-request limit.
constexpr size_t kReplayDecodedLimit = size_t{1} << 32;
// How long a stopping pipeline keeps retrying a failed store write; what it
// could not write stays in the log for the next start.
constexpr absl::Duration kStopPatience = absl::Seconds(10);

ClosedBatch Merge(std::vector<ClosedBatch> batches) {
  ClosedBatch out;
  std::map<std::string, DeviceProgress> progress;  // a device's latest wins
  for (ClosedBatch& b : batches) {
    for (auto& s : b.series) out.series.push_back(std::move(s));
    out.minutes.insert(b.minutes.begin(), b.minutes.end());
    for (auto& p : b.progress) progress[p.device_id] = std::move(p);
    out.checkpoint = std::max(out.checkpoint, b.checkpoint);
  }
  for (auto& [device, p] : progress) out.progress.push_back(std::move(p));
  return out;
}

}  // namespace

PushPipeline::PushPipeline(SampleLog* log, UsageWriter* writer, TelemetryMetrics* metrics, const Clock* clock,
                           PushPipelineOptions options)
    : log_(log),
      writer_(writer),
      metrics_(metrics),
      clock_(clock),
      options_(options),
      window_(options.settle, options.limits) {}

absl::StatusOr<std::unique_ptr<PushPipeline>> PushPipeline::Start(SampleLog* log, UsageWriter* writer,
                                                                  const Normaliser* normaliser,
                                                                  TelemetryMetrics* metrics, const Clock* clock,
                                                                  PushPipelineOptions options) {
  FLEETCAP_ASSIGN_OR_RETURN(auto state, writer->LoadPushState());
  std::unique_ptr<PushPipeline> pipeline(new PushPipeline(log, writer, metrics, clock, options));
  pipeline->window_.Restore(state.devices);
  int64_t from = log->begin();
  if (state.checkpoint && state.log_id == log->id()) from = std::max(from, *state.checkpoint);
  pipeline->written_checkpoint_ = from;
  auto logger = Logger("telemetry");
  const absl::Time now = clock->Now();
  int64_t records = 0, samples = 0;
  auto replayed = log->Replay(from, [&](LogSpan span, absl::string_view body) {
    auto decoded = DecodeRemoteWrite(body, *normaliser, kReplayDecodedLimit);
    if (!decoded.ok()) {  // it decoded when accepted: written by another version
      logger->warn("sample log record at {} no longer decodes, skipped: {}", span.begin, decoded.status().ToString());
      return absl::OkStatus();
    }
    // Counted when the record was accepted; not again.
    DropCounts outside;
    decoded->samples_usable -= DropOutsideWindow(options.window, now, &decoded->series, &outside);
    ++records;
    samples += decoded->samples_usable;
    pipeline->window_.Add(span.begin, span.end, std::move(decoded->series), now);
    return absl::OkStatus();
  });
  if (!replayed.ok()) return replayed;
  if (records > 0) logger->info("replayed {} records ({} samples) of the sample log from {}", records, samples, from);
  pipeline->durable_ = log->end();
  metrics->OpenMinutes().Set(static_cast<double>(pipeline->window_.open_minutes()));
  metrics->LogUnwrittenBytes().Set(static_cast<double>(log->end() - from));
  pipeline->apply_thread_ = std::thread([p = pipeline.get()] { p->ApplyLoop(); });
  pipeline->write_thread_ = std::thread([p = pipeline.get()] { p->WriteLoop(); });
  return pipeline;
}

PushPipeline::~PushPipeline() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  applicable_.notify_all();
  if (!apply_thread_.joinable()) return;  // Start failed before the threads ran
  apply_thread_.join();                   // hands its last closed minutes over
  {
    std::lock_guard<std::mutex> lock(mu_);
    apply_done_ = true;
  }
  writable_.notify_all();
  write_thread_.join();
}

absl::Status PushPipeline::Accept(absl::string_view body, DecodedWrite decoded) {
  const int64_t unwritten = log_->end();
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return absl::UnavailableError("shutting down");
    if (unwritten - written_checkpoint_ > options_.max_unwritten_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat("the store is behind: ", unwritten - written_checkpoint_,
                                                       " bytes of the sample log wait for it"));
    }
    // One oversized request still passes an empty queue, so a request
    // larger than the bound is not refused forever.
    if (queued_samples_ > 0 && queued_samples_ + decoded.samples_usable > options_.max_queued_samples) {
      return absl::ResourceExhaustedError(
          absl::StrCat("aggregation is behind: ", queued_samples_, " samples wait for it"));
    }
  }
  const int64_t samples = decoded.samples_usable;
  const absl::Duration began = clock_->Monotonic();
  auto span = log_->Append(body, [&](LogSpan at) {
    std::lock_guard<std::mutex> lock(mu_);
    records_.push_back({at, std::move(decoded.series), samples});
    queued_samples_ += samples;
    metrics_->QueueSamples().Set(static_cast<double>(queued_samples_));
  });
  if (!span.ok()) return absl::UnavailableError(span.status().message());
  if (auto status = log_->WaitDurable(span->end); !status.ok()) return absl::UnavailableError(status.message());
  metrics_->LogLatency().Observe(absl::ToDoubleSeconds(clock_->Monotonic() - began));
  {
    std::lock_guard<std::mutex> lock(mu_);
    durable_ = std::max(durable_, span->end);
    metrics_->LogUnwrittenBytes().Set(static_cast<double>(span->end - written_checkpoint_));
  }
  applicable_.notify_one();
  return absl::OkStatus();
}

void PushPipeline::ApplyLoop() {
  absl::Duration next_close = clock_->Monotonic() + options_.close_every;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    auto ready = [this] { return !records_.empty() && records_.front().span.end <= durable_; };
    clock_->WaitFor(lock, applicable_, next_close - clock_->Monotonic(), [&] { return stopping_ || ready(); });
    std::vector<Record> batch;
    while (ready()) {
      batch.push_back(std::move(records_.front()));
      records_.pop_front();
    }
    const bool last = stopping_ && !ready();
    lock.unlock();
    int64_t samples = 0;
    for (Record& r : batch) {
      samples += r.samples;
      const AddCounts counts = window_.Add(r.span.begin, r.span.end, std::move(r.series), clock_->Now());
      metrics_->Accepted(kSource).Increment(static_cast<double>(counts.accepted));
      metrics_->Duplicates(kSource).Increment(static_cast<double>(counts.duplicate));
      if (counts.late > 0) {
        metrics_->DroppedBy(kSource, DropReasonName(DropReason::kLate)).Increment(static_cast<double>(counts.late));
      }
      if (counts.device_limit > 0) {
        metrics_->DroppedBy(kSource, "device_limit").Increment(static_cast<double>(counts.device_limit));
      }
      if (counts.series_limit > 0) {
        metrics_->DroppedBy(kSource, "series_limit").Increment(static_cast<double>(counts.series_limit));
      }
    }
    if (clock_->Monotonic() >= next_close || last) {
      ClosedBatch closed = window_.Close(clock_->Now());
      if (!closed.minutes.empty() || closed.checkpoint_moved) Hand(std::move(closed));
      next_close = clock_->Monotonic() + options_.close_every;
    }
    lock.lock();
    queued_samples_ -= samples;
    metrics_->QueueSamples().Set(static_cast<double>(queued_samples_));
    metrics_->OpenMinutes().Set(static_cast<double>(window_.open_minutes()));
    metrics_->HeldDevices().Set(static_cast<double>(window_.devices()));
    metrics_->HeldSeries().Set(static_cast<double>(window_.series()));
    if (last) return;
  }
}

void PushPipeline::Hand(ClosedBatch batch) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_.push_back(std::move(batch));
  }
  writable_.notify_one();
}

void PushPipeline::WriteLoop() {
  auto logger = Logger("telemetry");
  absl::Duration give_up = absl::InfiniteDuration();
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    writable_.wait(lock, [this] { return apply_done_ || !closed_.empty(); });
    if (apply_done_ && give_up == absl::InfiniteDuration()) give_up = clock_->Monotonic() + kStopPatience;
    if (closed_.empty()) return;  // the apply thread is done and everything is written
    ClosedBatch batch = Merge(std::move(closed_));
    closed_.clear();
    lock.unlock();
    const absl::Duration began = clock_->Monotonic();
    auto written = writer_->WriteClosed(batch, log_->id());
    metrics_->WriteLatency().Observe(absl::ToDoubleSeconds(clock_->Monotonic() - began));
    if (written.ok()) {
      metrics_->MinuteRows().Increment(static_cast<double>(*written));
      if (auto dropped = log_->DropBefore(batch.checkpoint); !dropped.ok()) {
        logger->warn("{}", dropped.ToString());
      }
    }
    const int64_t end = log_->end();
    lock.lock();
    if (written.ok()) {
      written_checkpoint_ = std::max(written_checkpoint_, batch.checkpoint);
      metrics_->LogUnwrittenBytes().Set(static_cast<double>(end - written_checkpoint_));
      continue;
    }
    if (clock_->Monotonic() >= give_up) {
      logger->warn("stopping with {} closed device-minutes unwritten (kept in the sample log): {}",
                   batch.minutes.size(), written.status().ToString());
      return;
    }
    logger->warn("writing {} closed device-minutes failed, retrying: {}", batch.minutes.size(),
                 written.status().ToString());
    closed_.insert(closed_.begin(), std::move(batch));
    clock_->WaitFor(lock, writable_, options_.retry_every,
                    [this, give_up] { return apply_done_ && clock_->Monotonic() >= give_up; });
  }
}

}  // namespace fleetcap::telemetry

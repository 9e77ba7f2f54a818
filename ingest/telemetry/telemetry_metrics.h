#pragma once
// The telemetry ingest's own metrics, fleetcap_telemetry_*.

#include <memory>
#include <string>

#include "ingest/telemetry/normaliser.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace fleetcap::telemetry {

class TelemetryMetrics {
 public:
  explicit TelemetryMetrics(prometheus::Registry& registry);

  // Samples in requests / query results, by source (remote_write, pull).
  prometheus::Counter& Received(const std::string& source) { return received_.Add({{"source", source}}); }
  // Samples stored, new ones and replays (already stored: counted once).
  prometheus::Counter& Accepted(const std::string& source) { return accepted_.Add({{"source", source}}); }
  prometheus::Counter& Duplicates(const std::string& source) { return duplicates_.Add({{"source", source}}); }
  void Dropped(const std::string& source, const DropCounts& drops);
  prometheus::Counter& DroppedBy(const std::string& source, const std::string& reason) {
    return dropped_.Add({{"source", source}, {"reason", reason}});
  }
  prometheus::Counter& Requests(int status) { return requests_.Add({{"code", std::to_string(status)}}); }
  prometheus::Counter& MinuteRows() { return rows_; }
  // Records set aside into the quarantine, by source and reason.
  prometheus::Counter& Quarantined(const std::string& source, const std::string& reason) {
    return quarantined_.Add({{"source", source}, {"reason", reason}});
  }
  prometheus::Counter& Backpressure() { return backpressure_; }
  prometheus::Histogram& WriteLatency() { return write_latency_; }
  prometheus::Histogram& LogLatency() { return log_latency_; }
  prometheus::Gauge& QueueSamples() { return queue_samples_; }
  prometheus::Counter& PullQueries(const std::string& outcome) { return pull_queries_.Add({{"outcome", outcome}}); }
  prometheus::Gauge& WatermarkLag(const std::string& metric) { return watermark_lag_.Add({{"metric", metric}}); }
  prometheus::Gauge& OpenMinutes() { return open_minutes_; }
  prometheus::Gauge& HeldDevices() { return held_devices_; }
  prometheus::Gauge& HeldSeries() { return held_series_; }
  prometheus::Gauge& LogUnwrittenBytes() { return log_unwritten_bytes_; }

 private:
  prometheus::Family<prometheus::Counter>& received_;
  prometheus::Family<prometheus::Counter>& accepted_;
  prometheus::Family<prometheus::Counter>& duplicates_;
  prometheus::Family<prometheus::Counter>& dropped_;
  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Counter& rows_;
  prometheus::Family<prometheus::Counter>& quarantined_;
  prometheus::Counter& backpressure_;
  prometheus::Histogram& write_latency_;
  prometheus::Histogram& log_latency_;
  prometheus::Gauge& queue_samples_;
  prometheus::Family<prometheus::Counter>& pull_queries_;
  prometheus::Family<prometheus::Gauge>& watermark_lag_;
  prometheus::Gauge& open_minutes_;
  prometheus::Gauge& held_devices_;
  prometheus::Gauge& held_series_;
  prometheus::Gauge& log_unwritten_bytes_;
};

}  // namespace fleetcap::telemetry

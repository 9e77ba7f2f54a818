#include "ingest/telemetry/telemetry_metrics.h"

namespace fleetcap::telemetry {

TelemetryMetrics::TelemetryMetrics(prometheus::Registry& registry)
    : received_(prometheus::BuildCounter()
                    .Name("fleetcap_telemetry_samples_received_total")
                    .Help("Samples received, by source")
                    .Register(registry)),
      accepted_(prometheus::BuildCounter()
                    .Name("fleetcap_telemetry_samples_accepted_total")
                    .Help("Samples taken in for the first time (durable in the sample log, or stored), by source")
                    .Register(registry)),
      duplicates_(prometheus::BuildCounter()
                      .Name("fleetcap_telemetry_samples_duplicate_total")
                      .Help("Samples received again (retried requests, re-ingested windows), by source")
                      .Register(registry)),
      dropped_(prometheus::BuildCounter()
                   .Name("fleetcap_telemetry_samples_dropped_total")
                   .Help("Samples not stored, by source and reason")
                   .Register(registry)),
      requests_(prometheus::BuildCounter()
                    .Name("fleetcap_telemetry_remote_write_requests_total")
                    .Help("remote_write requests answered, by HTTP status")
                    .Register(registry)),
      rows_(prometheus::BuildCounter()
                .Name("fleetcap_telemetry_minute_rows_written_total")
                .Help("usage_minute rows written")
                .Register(registry)
                .Add({})),
      quarantined_(prometheus::BuildCounter()
                       .Name("fleetcap_telemetry_quarantined_total")
                       .Help("Records that could not be stored, set aside into the quarantine, by source and reason")
                       .Register(registry)),
      backpressure_(prometheus::BuildCounter()
                        .Name("fleetcap_telemetry_backpressure_total")
                        .Help("remote_write requests refused (503) because aggregation or the store was behind")
                        .Register(registry)
                        .Add({})),
      write_latency_(prometheus::BuildHistogram()
                         .Name("fleetcap_telemetry_write_latency_seconds")
                         .Help("Time to write one batch of minute rows to the store")
                         .Register(registry)
                         .Add({}, prometheus::Histogram::BucketBoundaries{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                                          2.5, 5, 10})),
      log_latency_(prometheus::BuildHistogram()
                       .Name("fleetcap_telemetry_log_latency_seconds")
                       .Help("Time to make one remote_write request durable in the sample log")
                       .Register(registry)
                       .Add({}, prometheus::Histogram::BucketBoundaries{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                                        0.1, 0.25, 1})),
      queue_samples_(prometheus::BuildGauge()
                         .Name("fleetcap_telemetry_queue_samples")
                         .Help("Samples durable in the sample log and waiting to be aggregated")
                         .Register(registry)
                         .Add({})),
      pull_queries_(prometheus::BuildCounter()
                        .Name("fleetcap_telemetry_pull_queries_total")
                        .Help("Prometheus query_range calls, by outcome")
                        .Register(registry)),
      watermark_lag_(prometheus::BuildGauge()
                         .Name("fleetcap_telemetry_watermark_lag_seconds")
                         .Help("How far the pull watermark is behind now, by metric")
                         .Register(registry)),
      open_minutes_(prometheus::BuildGauge()
                        .Name("fleetcap_telemetry_open_minutes")
                        .Help("remote_write device-minutes held in memory until they close")
                        .Register(registry)
                        .Add({})),
      held_devices_(prometheus::BuildGauge()
                        .Name("fleetcap_telemetry_window_devices")
                        .Help("remote_write devices held in memory (bounded by --max-devices)")
                        .Register(registry)
                        .Add({})),
      held_series_(prometheus::BuildGauge()
                       .Name("fleetcap_telemetry_window_series")
                       .Help("remote_write series held in memory (bounded by --max-series)")
                       .Register(registry)
                       .Add({})),
      log_unwritten_bytes_(prometheus::BuildGauge()
                               .Name("fleetcap_telemetry_log_unwritten_bytes")
                               .Help("Bytes of the sample log after the store's checkpoint")
                               .Register(registry)
                               .Add({})) {}

void TelemetryMetrics::Dropped(const std::string& source, const DropCounts& drops) {
  for (int i = 0; i < kDropReasonCount; ++i) {
    if (drops.by_reason[i] > 0) {
      DroppedBy(source, DropReasonName(static_cast<DropReason>(i))).Increment(static_cast<double>(drops.by_reason[i]));
    }
  }
}

}  // namespace fleetcap::telemetry

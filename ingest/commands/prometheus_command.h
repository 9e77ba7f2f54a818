#pragma once
// `fleetcap-ingest prometheus`: accelerator utilisation from Prometheus,
// pushed to its remote_write receiver and/or pulled with query_range, stored
// per minute in usage_minute.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "ingest/telemetry/prometheus_client.h"
#include "ingest/telemetry/pull_ingester.h"
#include "ingest/telemetry/push_pipeline.h"
#include "ingest/telemetry/remote_write_server.h"
#include "ingest/telemetry/sample_log.h"
#include "store/usage_partitions.h"

namespace fleetcap::ingest {

struct PrometheusOptions {
  DaemonOptions daemon;
  std::string cluster;
  std::string mapping_file;  // "" for the built-in mapping; RunPrometheus reads it
  store::UsagePartitionPolicy partitions;

  // Push, when remote_write.listen is set. Its bearer token is read by
  // RunPrometheus from bearer_token_file.
  telemetry::RemoteWriteOptions remote_write;
  std::string bearer_token_file;
  telemetry::SampleLogOptions sample_log;
  telemetry::PushPipelineOptions pipeline;

  // Pull, when prometheus_url is set: every pull_interval, or once.
  std::string prometheus_url;
  telemetry::PrometheusClientOptions client;
  telemetry::PullOptions pull;
  absl::Duration pull_interval;
  bool once = false;
};

// The options in `args` (the arguments after the command's name), or
// INVALID_ARGUMENT naming the flag. Pure: `env` is the environment.
absl::StatusOr<PrometheusOptions> ParsePrometheusFlags(const std::vector<std::string>& args, const Environment& env);

// Serves and/or pulls until SIGTERM (or, with --once, one pull cycle).
absl::Status RunPrometheus(const PrometheusOptions& options);

// Parses and runs; returns the exit code.
int RunPrometheusCommand(const std::vector<std::string>& args);

}  // namespace fleetcap::ingest

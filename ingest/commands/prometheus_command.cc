#include "ingest/commands/prometheus_command.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/daemon_flags.h"
#include "common/flags.h"
#include "common/logging.h"
#include "common/metrics_server.h"
#include "common/periodic.h"
#include "common/pg_pool.h"
#include "common/signals.h"
#include "common/time_util.h"
#include "common/tls_files.h"
#include "ingest/telemetry/metric_mapping.h"
#include "ingest/telemetry/normaliser.h"
#include "ingest/telemetry/prometheus_client.h"
#include "ingest/telemetry/pull_ingester.h"
#include "ingest/telemetry/push_pipeline.h"
#include "ingest/telemetry/remote_write_server.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "ingest/telemetry/sample_log.h"
#include "ingest/telemetry/usage_writer.h"
#include "store/migrator.h"
#include "store/usage_partitions.h"

namespace fleetcap::ingest {
namespace {

constexpr const char* kUsage = R"(prometheus --cluster NAME (--remote-write-listen ADDR | --prometheus-url URL) [flags]

Records how hard every accelerator, and every pod's share of one, worked,
per minute, exactly once, into usage_minute. With --remote-write-listen it
serves Prometheus remote_write 1.0 at http://ADDR/api/v1/write (https://
with --remote-write-tls-cert), logging every request in --wal-dir before
answering it; with --prometheus-url it pulls with query_range. Both may run at once. Prints
"fleetcap-ingest prometheus ready remote_write=PORT metrics=PORT" when
serving, and stops cleanly on SIGTERM.)";

int Fail(int code, const absl::Status& status) {
  std::cerr << "fleetcap-ingest prometheus: " << status.message() << "\n";
  return code;
}

absl::StatusOr<absl::Duration> ParsePositiveDuration(const std::string& flag, const std::string& text) {
  absl::Duration d;
  if (!absl::ParseDuration(text, &d) || d < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag, ": \"", text, "\" is not a duration like 90s or 5m"));
  }
  return d;
}

// The token in `path`, without surrounding whitespace (as Prometheus reads
// its credentials file).
absl::StatusOr<std::string> ReadBearerToken(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::InvalidArgumentError(absl::StrCat("--remote-write-bearer-token-file: cannot read \"", path, "\""));
  std::stringstream text;
  text << in.rdbuf();
  std::string token(absl::StripAsciiWhitespace(text.str()));
  if (token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--remote-write-bearer-token-file: \"", path, "\" is empty"));
  }
  return token;
}

}  // namespace

int RunPrometheusCommand(const std::vector<std::string>& args) {
  BlockTerminationSignals();  // before any thread starts
  DaemonFlags daemon;
  std::string cluster, mapping_path, remote_write_listen, prometheus_url, wal_dir;
  int64_t max_body_mb = 32, max_queued_samples = 4'000'000, max_unwritten_mb = 1024, wal_segment_mb = 64,
          max_points = 11'000;
  std::string since_text, until_text, settle_text = "5m", interval_text = "60s", query_timeout_text = "30s";
  std::string sample_ahead_text = "1h";
  int64_t retention_days = store::UsagePartitionPolicy{}.retention_days;
  int64_t query_attempts = 4;
  bool once = false;
  std::string token_file, read_timeout_text = "60s";
  bool trusted_network = false;
  TlsFiles tls;
  int64_t max_devices = 100'000, max_series = 1'000'000;
  FlagSet flags("fleetcap-ingest", kUsage);
  daemon.Register(flags);
  flags.String("cluster", &cluster, "the cluster the telemetry belongs to");
  flags.String("mapping", &mapping_path, "YAML mapping of metric and label names (default: built in)");
  flags.String("remote-write-listen", &remote_write_listen, "HOST:PORT for remote_write (port 0 picks one)");
  flags.String("prometheus-url", &prometheus_url, "Prometheus base URL to pull from with query_range");
  flags.String("since", &since_text, "RFC 3339: pull from here (a backfill) when before the watermark");
  flags.String("until", &until_text, "RFC 3339: pull up to this minute only (default: now)");
  flags.String("wal-dir", &wal_dir, "folder of the remote_write sample log (needed with --remote-write-listen)");
  flags.Int("wal-segment-mb", &wal_segment_mb, "size of one sample log segment file, in MiB");
  flags.String("settle", &settle_text,
               "how long a minute waits for late samples: pulled again until then, held open for remote_write");
  flags.String("pull-interval", &interval_text, "time between pull cycles");
  flags.String("max-sample-ahead", &sample_ahead_text,
               "samples further ahead of this receiver's clock are dropped (reason \"future\")");
  flags.Int("retention-days", &retention_days,
            "usage_minute keeps this many days: older partitions are dropped, older samples refused (\"too_old\")");
  flags.Int("max-points", &max_points, "most points per series in one query_range (Prometheus allows 11000)");
  flags.String("query-timeout", &query_timeout_text, "time allowed for one query_range call");
  flags.Int("query-attempts", &query_attempts, "tries per query_range (timeouts, unavailable and 5xx are retried)");
  flags.Bool("once", &once, "run one pull cycle, print what it stored and exit");
  flags.Int("max-body-mb", &max_body_mb, "largest remote_write body accepted, in MiB (compressed)");
  flags.Int("max-queued-samples", &max_queued_samples, "logged samples waiting for aggregation before answering 503");
  flags.Int("max-unwritten-mb", &max_unwritten_mb, "MiB of sample log the store may lag behind before answering 503");
  flags.String("remote-write-bearer-token-file", &token_file,
               "file holding the token remote_write requests must carry (Authorization: Bearer)");
  flags.String("remote-write-tls-cert", &tls.cert, "PEM certificate: serve remote_write over HTTPS (with --remote-write-tls-key)");
  flags.String("remote-write-tls-key", &tls.key, "PEM private key of --remote-write-tls-cert");
  flags.String("remote-write-tls-client-ca", &tls.client_ca,
               "PEM CA: remote_write clients must present a certificate it signed");
  flags.Bool("remote-write-trusted-network", &trusted_network,
             "allow remote_write without authentication on an address other than loopback");
  flags.String("remote-write-read-timeout", &read_timeout_text, "longest a remote_write request may take to arrive");
  flags.Int("max-devices", &max_devices, "remote_write devices held in memory (idle ones are forgotten first)");
  flags.Int("max-series", &max_series, "remote_write series held in memory");

  auto proceed = daemon.ParseCommand(flags, args);
  if (!proceed.ok()) return Fail(2, proceed.status());
  if (!*proceed) return 0;
  if (cluster.empty()) return Fail(2, absl::InvalidArgumentError("--cluster: empty"));
  if (remote_write_listen.empty() && prometheus_url.empty()) {
    return Fail(2, absl::InvalidArgumentError("give --remote-write-listen, --prometheus-url or both"));
  }
  if (max_body_mb < 1) return Fail(2, absl::InvalidArgumentError("--max-body-mb: must be at least 1"));
  if (max_queued_samples < 1) return Fail(2, absl::InvalidArgumentError("--max-queued-samples: must be at least 1"));
  if (max_unwritten_mb < 1) return Fail(2, absl::InvalidArgumentError("--max-unwritten-mb: must be at least 1"));
  if (wal_segment_mb < 1 || wal_segment_mb > 1024) {
    return Fail(2, absl::InvalidArgumentError("--wal-segment-mb: must be within 1..1024"));
  }
  if (!remote_write_listen.empty() && wal_dir.empty()) {
    return Fail(2, absl::InvalidArgumentError("--wal-dir: needed with --remote-write-listen"));
  }
  if (auto status = daemon.RequireDb(); !status.ok()) return Fail(2, status);
  if (once && prometheus_url.empty()) return Fail(2, absl::InvalidArgumentError("--once: needs --prometheus-url"));
  if (max_points < 1 || max_points > 11'000) {
    return Fail(2, absl::InvalidArgumentError("--max-points: must be within 1..11000"));
  }
  telemetry::PullOptions pull_options;
  pull_options.max_points = static_cast<int>(max_points);
  auto settle = ParsePositiveDuration("settle", settle_text);
  if (!settle.ok()) return Fail(2, settle.status());
  pull_options.settle = *settle;
  auto query_timeout = ParsePositiveDuration("query-timeout", query_timeout_text);
  if (!query_timeout.ok()) return Fail(2, query_timeout.status());
  if (query_attempts < 1) return Fail(2, absl::InvalidArgumentError("--query-attempts: must be at least 1"));
  auto interval = ParsePositiveDuration("pull-interval", interval_text);
  if (!interval.ok()) return Fail(2, interval.status());
  telemetry::SampleTimeWindow window;
  auto sample_ahead = ParsePositiveDuration("max-sample-ahead", sample_ahead_text);
  if (!sample_ahead.ok()) return Fail(2, sample_ahead.status());
  if (retention_days < 1 || retention_days > 100'000) {
    return Fail(2, absl::InvalidArgumentError("--retention-days: must be within 1..100000"));
  }
  store::UsagePartitionPolicy partition_policy;
  partition_policy.retention_days = static_cast<int>(retention_days);
  window.ahead = *sample_ahead;
  window.behind = absl::Hours(24 * retention_days);
  pull_options.window = window;
  if (!since_text.empty()) {
    auto since = ParseRfc3339("--since", since_text);
    if (!since.ok()) return Fail(2, since.status());
    pull_options.since = *since;
  }
  if (!until_text.empty()) {
    auto until = ParseRfc3339("--until", until_text);
    if (!until.ok()) return Fail(2, until.status());
    pull_options.until = *until;
  }
  auto read_timeout = ParsePositiveDuration("remote-write-read-timeout", read_timeout_text);
  if (!read_timeout.ok()) return Fail(2, read_timeout.status());
  if (*read_timeout < absl::Seconds(1)) {
    return Fail(2, absl::InvalidArgumentError("--remote-write-read-timeout: must be at least 1s"));
  }
  if (max_devices < 1) return Fail(2, absl::InvalidArgumentError("--max-devices: must be at least 1"));
  if (max_series < 1) return Fail(2, absl::InvalidArgumentError("--max-series: must be at least 1"));
  std::string bearer_token;
  if (!token_file.empty()) {
    auto token = ReadBearerToken(token_file);
    if (!token.ok()) return Fail(2, token.status());
    bearer_token = std::move(*token);
  }
  if (auto checked = CheckTlsFiles(tls, "--remote-write-tls"); !checked.ok()) return Fail(2, checked);
  telemetry::MetricMapping mapping = telemetry::DefaultMetricMapping();
  if (!mapping_path.empty()) {
    auto loaded = telemetry::LoadMetricMapping(mapping_path);
    if (!loaded.ok()) return Fail(2, loaded.status());
    mapping = std::move(*loaded);
  }
  auto log = Logger("telemetry");

  auto registry = std::make_shared<prometheus::Registry>();
  telemetry::TelemetryMetrics metrics(*registry);
  std::unique_ptr<MetricsServer> metrics_server;
  if (!daemon.metrics_listen.empty()) {
    auto started = MetricsServer::Start(daemon.metrics_listen, registry);
    if (!started.ok()) return Fail(1, started.status());
    metrics_server = std::move(*started);
  }
  {
    auto conn = PgConnect(daemon.db);
    if (!conn.ok()) return Fail(1, conn.status());
    if (auto status = store::Migrator().EnsureCurrent(**conn, daemon.migrate); !status.ok()) return Fail(1, status);
  }
  auto pool = PgPool::Open(daemon.db, 3);
  if (!pool.ok()) return Fail(1, pool.status());
  RealClock clock;
  // usage_minute's partitions ahead of time and past retention, hourly.
  Periodic partitions(absl::Hours(1), &clock, [&pool, &clock, log, partition_policy] {
    auto lease = (*pool)->Acquire();
    absl::Status status = lease.status();
    if (lease.ok()) status = store::MaintainUsagePartitions(**lease, clock.Now(), partition_policy).status();
    if (!status.ok()) log->warn("maintaining usage_minute partitions, retried in an hour: {}", status.ToString());
  });

  telemetry::Normaliser normaliser(&mapping);
  telemetry::UsageWriterOptions writer_options;
  writer_options.retention_days = partition_policy.retention_days;
  writer_options.metrics = &metrics;
  telemetry::UsageWriter push_writer(pool->get(), cluster, writer_options);
  std::unique_ptr<telemetry::SampleLog> sample_log;
  std::unique_ptr<telemetry::PushPipeline> pipeline;
  std::unique_ptr<telemetry::RemoteWriteServer> receiver;
  if (!remote_write_listen.empty()) {
    auto opened = telemetry::SampleLog::Open({wal_dir, wal_segment_mb << 20});
    if (!opened.ok()) return Fail(1, opened.status());
    sample_log = std::move(*opened);
    telemetry::PushPipelineOptions pipeline_options;
    pipeline_options.settle = *settle;
    pipeline_options.max_queued_samples = max_queued_samples;
    pipeline_options.max_unwritten_bytes = max_unwritten_mb << 20;
    pipeline_options.window = window;
    pipeline_options.limits = {max_devices, max_series};
    auto started = telemetry::PushPipeline::Start(sample_log.get(), &push_writer, &normaliser, &metrics, &clock,
                                                  pipeline_options);
    if (!started.ok()) return Fail(1, started.status());
    pipeline = std::move(*started);
    telemetry::RemoteWriteOptions options;
    options.listen = remote_write_listen;
    options.max_body_bytes = static_cast<size_t>(max_body_mb) << 20;
    options.window = window;
    options.read_timeout = *read_timeout;
    options.bearer_token = bearer_token;
    options.tls = tls;
    options.trusted_network = trusted_network;
    auto serving = telemetry::RemoteWriteServer::Start(options, &normaliser, pipeline.get(), &metrics, &clock);
    if (!serving.ok()) return Fail(1, serving.status());
    receiver = std::move(*serving);
  }

  telemetry::UsageWriter pull_writer(pool->get(), cluster, writer_options);
  std::unique_ptr<telemetry::PrometheusClient> client;
  std::unique_ptr<telemetry::PullIngester> ingester;
  std::unique_ptr<Periodic> pull_loop;
  if (!prometheus_url.empty()) {
    telemetry::PrometheusClientOptions client_options;
    client_options.timeout = *query_timeout;
    client_options.attempts = static_cast<int>(query_attempts);
    client = std::make_unique<telemetry::PrometheusClient>(prometheus_url, client_options, &clock);
    ingester = std::make_unique<telemetry::PullIngester>(client.get(), &mapping, &pull_writer, pool->get(), &metrics,
                                                         &clock, pull_options);
    if (once) {
      auto report = ingester->RunOnce();
      if (!report.ok()) return Fail(1, report.status());
      std::cout << "pulled " << FormatRfc3339(report->from) << " .. " << FormatRfc3339(report->to) << ": "
                << report->chunks << " chunks, " << report->queries << " queries, " << report->rows << " rows\n";
      return 0;
    }
    pull_loop = std::make_unique<Periodic>(*interval, &clock, [&ingester, log] {
      auto report = ingester->RunOnce();
      if (report.ok()) {
        log->debug("pulled {} .. {}: {} rows", FormatRfc3339(report->from), FormatRfc3339(report->to), report->rows);
      } else {
        log->warn("pull cycle failed, retried next cycle: {}", report.status().ToString());
      }
    });
  }

  std::cout << "fleetcap-ingest prometheus ready remote_write=" << (receiver ? receiver->port() : 0)
            << " metrics=" << (metrics_server ? metrics_server->port() : 0) << std::endl;
  log->info("cluster {}: remote_write on port {}", cluster, receiver ? receiver->port() : 0);
  const int signal = WaitForTerminationSignal();
  log->info("signal {}: shutting down", signal);
  pull_loop.reset();
  receiver.reset();  // no new requests; those in flight finish
  pipeline.reset();  // writes what closed; open minutes wait in the log
  return 0;
}

}  // namespace fleetcap::ingest

#include "ingest/commands/prometheus_command.h"

#include <iostream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/daemon.h"
#include "common/exit.h"
#include "common/file_read.h"
#include "common/logging.h"
#include "common/periodic.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "common/tls_files.h"
#include "ingest/telemetry/metric_mapping.h"
#include "ingest/telemetry/normaliser.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "ingest/telemetry/usage_writer.h"
#include "store/migrator.h"
#include "store/pg_usage_repository.h"

namespace fleetcap::ingest {
namespace {

constexpr const char* kPrometheusUsage =
    R"(prometheus --cluster NAME (--remote-write-listen ADDR | --prometheus-url URL) [flags]

Records how hard every accelerator, and every pod's share of one, worked,
per minute, exactly once, into usage_minute. With --remote-write-listen it
serves Prometheus remote_write 1.0 at http://ADDR/api/v1/write (https://
with --remote-write-tls-cert), logging every request in --wal-dir before
answering it; with --prometheus-url it pulls with query_range. Both may run at once. Prints
"fleetcap-ingest prometheus ready remote_write=PORT metrics=PORT" when
serving, and stops cleanly on SIGTERM.)";

// The flags' text before it is checked and converted into options.
struct PrometheusFlags {
  int64_t max_body_mb = 32, decode_budget_mb = 256, max_queued_samples = 4'000'000, max_unwritten_mb = 1024,
          wal_segment_mb = 64, max_points = 11'000;
  std::string since, until, settle = "5m", pull_interval = "60s", query_timeout = "30s", max_sample_ahead = "1h";
  int64_t retention_days = store::UsagePartitionPolicy{}.retention_days;
  int64_t query_attempts = 4;
  std::string read_timeout = "60s";
  int64_t max_devices = 100'000, max_series = 1'000'000;
};

void RegisterPrometheusFlags(FlagSet& flags, PrometheusFlags* f, PrometheusOptions* options) {
  flags.String("cluster", &options->cluster, "the cluster the telemetry belongs to");
  flags.String("mapping", &options->mapping_file, "YAML mapping of metric and label names (default: built in)");
  flags.String("remote-write-listen", &options->remote_write.listen, "HOST:PORT for remote_write (port 0 picks one)");
  flags.String("prometheus-url", &options->prometheus_url, "Prometheus base URL to pull from with query_range");
  flags.String("since", &f->since, "RFC 3339: pull from here (a backfill) when before the watermark");
  flags.String("until", &f->until, "RFC 3339: pull up to this minute only (default: now)");
  flags.String("wal-dir", &options->sample_log.dir,
               "folder of the remote_write sample log (needed with --remote-write-listen)");
  flags.Int("wal-segment-mb", &f->wal_segment_mb, "size of one sample log segment file, in MiB");
  flags.String("settle", &f->settle,
               "how long a minute waits for late samples: pulled again until then, held open for remote_write");
  flags.String("pull-interval", &f->pull_interval, "time between pull cycles");
  flags.String("max-sample-ahead", &f->max_sample_ahead,
               "samples further ahead of this receiver's clock are dropped (reason \"future\")");
  flags.Int("retention-days", &f->retention_days,
            "usage_minute keeps this many days: older partitions are dropped, older samples refused (\"too_old\")");
  flags.Int("max-points", &f->max_points, "most points per series in one query_range (Prometheus allows 11000)");
  flags.String("query-timeout", &f->query_timeout, "time allowed for one query_range call");
  flags.Int("query-attempts", &f->query_attempts, "tries per query_range (timeouts, unavailable and 5xx are retried)");
  flags.Bool("once", &options->once, "run one pull cycle, print what it stored and exit");
  flags.Int("max-body-mb", &f->max_body_mb, "largest remote_write body accepted, in MiB (compressed)");
  flags.Int("decode-budget-mb", &f->decode_budget_mb,
            "MiB all remote_write bodies being decoded at once may decompress to; past it 503 with Retry-After");
  flags.Int("max-queued-samples", &f->max_queued_samples,
            "logged samples waiting for aggregation before answering 503");
  flags.Int("max-unwritten-mb", &f->max_unwritten_mb,
            "MiB of sample log the store may lag behind before answering 503");
  flags.String("remote-write-bearer-token-file", &options->bearer_token_file,
               "file holding the token remote_write requests must carry (Authorization: Bearer)");
  flags.String("remote-write-tls-cert", &options->remote_write.tls.cert,
               "PEM certificate: serve remote_write over HTTPS (with --remote-write-tls-key)");
  flags.String("remote-write-tls-key", &options->remote_write.tls.key, "PEM private key of --remote-write-tls-cert");
  flags.String("remote-write-tls-client-ca", &options->remote_write.tls.client_ca,
               "PEM CA: remote_write clients must present a certificate it signed");
  flags.Bool("remote-write-trusted-network", &options->remote_write.trusted_network,
             "allow remote_write without authentication on an address other than loopback");
  flags.String("remote-write-read-timeout", &f->read_timeout,
               "longest a remote_write connection may stay silent, and a request may take from its first line to "
               "the end of its body (then 408)");
  flags.Int("max-devices", &f->max_devices, "remote_write devices held in memory (idle ones are forgotten first)");
  flags.Int("max-series", &f->max_series, "remote_write series held in memory");
}

absl::StatusOr<absl::Duration> ParsePositiveDuration(const std::string& flag, const std::string& text) {
  absl::Duration d;
  if (!absl::ParseDuration(text, &d) || d < absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat("--", flag, ": \"", text, "\" is not a duration like 90s or 5m"));
  }
  return d;
}

// A bearer token is a line; a file past this is not one.
constexpr size_t kMaxBearerTokenFileBytes = 64 * 1024;

// The token in `path`, without surrounding whitespace (as Prometheus reads
// its credentials file).

absl::StatusOr<std::string> ReadBearerToken(const std::string& path) {
  FLEETCAP_ASSIGN_OR_RETURN(std::string text,
                            ReadWholeFile("--remote-write-bearer-token-file", path, kMaxBearerTokenFileBytes));
  std::string token(absl::StripAsciiWhitespace(text));
  if (token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--remote-write-bearer-token-file: \"", path, "\" is empty"));
  }
  return token;
}

// What the files named by flags hold; their faults are the command line's.
struct FlagFiles {
  std::string bearer_token;
  telemetry::MetricMapping mapping = telemetry::DefaultMetricMapping();
};

absl::StatusOr<FlagFiles> ReadFlagFiles(const PrometheusOptions& options) {
  FlagFiles files;
  if (!options.bearer_token_file.empty()) {
    auto token = ReadBearerToken(options.bearer_token_file);
    if (!token.ok()) return CommandLineError(token.status());
    files.bearer_token = std::move(*token);
  }
  if (!options.mapping_file.empty()) {
    auto mapping = telemetry::LoadMetricMapping(options.mapping_file);
    if (!mapping.ok()) return CommandLineError(mapping.status());
    files.mapping = std::move(*mapping);
  }
  return files;
}

// usage_minute's partitions ahead of time and past retention, hourly.
std::unique_ptr<Periodic> MaintainPartitionsHourly(PgPool* pool, const Clock* clock,
                                                   store::UsagePartitionPolicy policy) {
  return std::make_unique<Periodic>(absl::Hours(1), clock, [pool, clock, policy] {
    auto lease = pool->Acquire();
    absl::Status status = lease.status();
    if (lease.ok()) status = store::MaintainUsagePartitions(**lease, clock->Now(), policy).status();
    if (!status.ok()) {
      Logger("telemetry")->warn("maintaining usage_minute partitions, retried in an hour: {}", status.ToString());
    }
  });
}

// The push side: requests are logged, then aggregated and written. Members
// stop in reverse order: no new requests, then what closed is written (open
// minutes wait in the log).
struct Push {
  std::unique_ptr<telemetry::UsageWriter> writer;
  std::unique_ptr<telemetry::SampleLog> log;
  std::unique_ptr<telemetry::PushPipeline> pipeline;
  std::unique_ptr<telemetry::RemoteWriteServer> receiver;
};

absl::StatusOr<Push> StartPush(const PrometheusOptions& options, const std::string& bearer_token,
                               store::UsageWriteRepository* usage, const telemetry::UsageWriterOptions& writer_options,
                               const telemetry::Normaliser* normaliser, telemetry::TelemetryMetrics* metrics,
                               const Clock* clock) {
  Push push;
  push.writer = std::make_unique<telemetry::UsageWriter>(usage, options.cluster, writer_options);
  FLEETCAP_ASSIGN_OR_RETURN(push.log, telemetry::SampleLog::Open(options.sample_log));
  FLEETCAP_ASSIGN_OR_RETURN(push.pipeline, telemetry::PushPipeline::Start(push.log.get(), push.writer.get(), normaliser,
                                                                          metrics, clock, options.pipeline));
  telemetry::RemoteWriteOptions receiver_options = options.remote_write;
  receiver_options.bearer_token = bearer_token;
  FLEETCAP_ASSIGN_OR_RETURN(push.receiver, telemetry::RemoteWriteServer::Start(receiver_options, normaliser,
                                                                               push.pipeline.get(), metrics, clock));
  return push;
}

// The pull side: query_range against Prometheus, written per minute.
struct Pull {
  std::unique_ptr<telemetry::UsageWriter> writer;
  std::unique_ptr<telemetry::PrometheusClient> client;
  std::unique_ptr<telemetry::PullIngester> ingester;
};

Pull MakePull(const PrometheusOptions& options, const telemetry::MetricMapping* mapping,
              store::UsageWriteRepository* usage, const telemetry::UsageWriterOptions& writer_options,
              telemetry::TelemetryMetrics* metrics, const Clock* clock) {
  Pull pull;
  pull.writer = std::make_unique<telemetry::UsageWriter>(usage, options.cluster, writer_options);
  pull.client = std::make_unique<telemetry::PrometheusClient>(options.prometheus_url, options.client, clock);
  pull.ingester = std::make_unique<telemetry::PullIngester>(pull.client.get(), mapping, pull.writer.get(), usage,
                                                            metrics, clock, options.pull);
  return pull;
}

absl::Status PullOnce(telemetry::PullIngester& ingester) {
  FLEETCAP_ASSIGN_OR_RETURN(telemetry::PullReport report, ingester.RunOnce());
  std::cout << "pulled " << FormatRfc3339(report.from) << " .. " << FormatRfc3339(report.to) << ": " << report.chunks
            << " chunks, " << report.queries << " queries, " << report.rows << " rows\n";
  return absl::OkStatus();
}

// A failed cycle is logged and the next one tries again.
std::unique_ptr<Periodic> PullEveryInterval(telemetry::PullIngester* ingester, absl::Duration interval,
                                            const Clock* clock) {
  return std::make_unique<Periodic>(interval, clock, [ingester] {
    auto report = ingester->RunOnce();
    if (report.ok()) {
      Logger("telemetry")
          ->debug("pulled {} .. {}: {} rows", FormatRfc3339(report->from), FormatRfc3339(report->to), report->rows);
    } else {
      Logger("telemetry")->warn("pull cycle failed, retried next cycle: {}", report.status().ToString());
    }
  });
}

}  // namespace

absl::StatusOr<PrometheusOptions> ParsePrometheusFlags(const std::vector<std::string>& args, const Environment& env) {
  PrometheusOptions options;
  options.daemon.db_connections = 3;
  options.remote_write.listen = "";
  PrometheusFlags f;
  FlagSet flags("fleetcap-ingest", kPrometheusUsage, env);
  RegisterDaemonFlags(flags, &options.daemon);
  RegisterPrometheusFlags(flags, &f, &options);
  FLEETCAP_RETURN_IF_ERROR(ParseDaemonCommand(flags, args, &options.daemon));
  if (!options.daemon.help.empty()) return options;

  const bool push = !options.remote_write.listen.empty(), pull = !options.prometheus_url.empty();
  if (options.cluster.empty()) return absl::InvalidArgumentError("--cluster: empty");
  if (!push && !pull) return absl::InvalidArgumentError("give --remote-write-listen, --prometheus-url or both");
  if (f.max_body_mb < 1) return absl::InvalidArgumentError("--max-body-mb: must be at least 1");
  if (f.decode_budget_mb < 1 || f.decode_budget_mb > 65'536) {
    return absl::InvalidArgumentError("--decode-budget-mb: must be within 1..65536");
  }
  if (f.max_queued_samples < 1) return absl::InvalidArgumentError("--max-queued-samples: must be at least 1");
  if (f.max_unwritten_mb < 1) return absl::InvalidArgumentError("--max-unwritten-mb: must be at least 1");
  if (f.wal_segment_mb < 1 || f.wal_segment_mb > 1024) {
    return absl::InvalidArgumentError("--wal-segment-mb: must be within 1..1024");
  }
  if (push && options.sample_log.dir.empty()) {
    return absl::InvalidArgumentError("--wal-dir: needed with --remote-write-listen");
  }
  FLEETCAP_RETURN_IF_ERROR(RequireDb(options.daemon));
  if (options.once && !pull) return absl::InvalidArgumentError("--once: needs --prometheus-url");
  if (f.max_points < 1 || f.max_points > 11'000) {
    return absl::InvalidArgumentError("--max-points: must be within 1..11000");
  }
  FLEETCAP_ASSIGN_OR_RETURN(absl::Duration settle, ParsePositiveDuration("settle", f.settle));
  FLEETCAP_ASSIGN_OR_RETURN(options.client.timeout, ParsePositiveDuration("query-timeout", f.query_timeout));
  if (f.query_attempts < 1) return absl::InvalidArgumentError("--query-attempts: must be at least 1");
  FLEETCAP_ASSIGN_OR_RETURN(options.pull_interval, ParsePositiveDuration("pull-interval", f.pull_interval));
  telemetry::SampleTimeWindow window;
  FLEETCAP_ASSIGN_OR_RETURN(window.ahead, ParsePositiveDuration("max-sample-ahead", f.max_sample_ahead));
  if (f.retention_days < 1 || f.retention_days > 100'000) {
    return absl::InvalidArgumentError("--retention-days: must be within 1..100000");
  }
  window.behind = absl::Hours(24 * f.retention_days);
  if (!f.since.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(options.pull.since, ParseRfc3339("--since", f.since));
  }
  if (!f.until.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(options.pull.until, ParseRfc3339("--until", f.until));
  }
  FLEETCAP_ASSIGN_OR_RETURN(options.remote_write.read_timeout,
                            ParsePositiveDuration("remote-write-read-timeout", f.read_timeout));
  if (options.remote_write.read_timeout < absl::Seconds(1)) {
    return absl::InvalidArgumentError("--remote-write-read-timeout: must be at least 1s");
  }
  if (f.max_devices < 1) return absl::InvalidArgumentError("--max-devices: must be at least 1");
  if (f.max_series < 1) return absl::InvalidArgumentError("--max-series: must be at least 1");
  FLEETCAP_RETURN_IF_ERROR(CheckTlsFiles(options.remote_write.tls, "--remote-write-tls"));

  options.partitions.retention_days = static_cast<int>(f.retention_days);
  options.remote_write.max_body_bytes = static_cast<size_t>(f.max_body_mb) << 20;
  options.remote_write.decode_budget_bytes = static_cast<size_t>(f.decode_budget_mb) << 20;
  options.remote_write.window = window;
  options.sample_log.segment_bytes = f.wal_segment_mb << 20;
  options.pipeline.settle = settle;
  options.pipeline.max_queued_samples = f.max_queued_samples;
  options.pipeline.max_unwritten_bytes = f.max_unwritten_mb << 20;
  options.pipeline.window = window;
  options.pipeline.limits = {f.max_devices, f.max_series};
  options.client.attempts = static_cast<int>(f.query_attempts);
  options.pull.settle = settle;
  options.pull.max_points = static_cast<int>(f.max_points);
  options.pull.window = window;
  return options;
}

absl::Status RunPrometheus(const PrometheusOptions& options) {
  FLEETCAP_ASSIGN_OR_RETURN(const FlagFiles files, ReadFlagFiles(options));
  FLEETCAP_ASSIGN_OR_RETURN(auto daemon, Daemon::Start(options.daemon, store::CheckSchema));
  telemetry::TelemetryMetrics metrics(*daemon->registry());
  RealClock clock;
  const auto partitions = MaintainPartitionsHourly(daemon->pool(), &clock, options.partitions);
  const telemetry::Normaliser normaliser(&files.mapping);
  store::UsageStoreOptions store_options;
  store_options.retention_days = options.partitions.retention_days;
  store::PgUsageRepository usage(daemon->pool(), store_options);
  telemetry::UsageWriterOptions writer_options;
  writer_options.metrics = &metrics;

  Push push;
  if (!options.remote_write.listen.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(
        push, StartPush(options, files.bearer_token, &usage, writer_options, &normaliser, &metrics, &clock));
  }
  Pull pull;
  std::unique_ptr<Periodic> pull_loop;
  if (!options.prometheus_url.empty()) {
    pull = MakePull(options, &files.mapping, &usage, writer_options, &metrics, &clock);
    if (options.once) return PullOnce(*pull.ingester);
    pull_loop = PullEveryInterval(pull.ingester.get(), options.pull_interval, &clock);
  }

  const int remote_write_port = push.receiver ? push.receiver->port() : 0;
  std::cout << "fleetcap-ingest prometheus ready remote_write=" << remote_write_port
            << " metrics=" << daemon->metrics_port() << std::endl;
  Logger("telemetry")->info("cluster {}: remote_write on port {}", options.cluster, remote_write_port);
  Logger("telemetry")->info("signal {}: shutting down", daemon->WaitForStop());
  // Leaving stops the pull loop, then the push side (see Push), then the rest.
  return absl::OkStatus();
}

int RunPrometheusCommand(const std::vector<std::string>& args) {
  return RunCommand("fleetcap-ingest prometheus", ParsePrometheusFlags(args, ProcessEnvironment()), RunPrometheus);
}

}  // namespace fleetcap::ingest

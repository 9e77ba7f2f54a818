#include "services/api/api_command.h"

#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/daemon.h"
#include "common/logging.h"
#include "common/memory_return.h"
#include "common/pg_pool.h"
#include "common/status_macros.h"
#include "store/migrator.h"

namespace fleetcap::api {
namespace {

constexpr const char* kUsage =
    "[init] [flags]\n\nServes the fleetcap gRPC services and the same data as JSON under /v1/.\n"
    "`fleetcap-api init` creates the first admin token and prints it once.";

// The limits on what clients can make the server spend, as flags give them.
struct LimitFlags {
  int64_t db_connections = 8;
  absl::Duration db_wait = absl::Seconds(5);
  absl::Duration db_statement_timeout = absl::Seconds(30);
  absl::Duration http_read_timeout = HttpLimits{}.read_timeout;
  int64_t http_threads = HttpLimits{}.threads;
  int64_t http_max_connections = HttpLimits{}.max_connections;
  int64_t http_max_connections_per_address = HttpLimits{}.max_connections_per_address;
  int64_t init_ttl_days = 365;
  int64_t max_requests = AdmissionLimits{}.total;
  int64_t max_requests_per_token = AdmissionLimits{}.per_token;
  int64_t max_heavy_reads = HeavyReadLimits{}.total;
  int64_t heavy_read_rows = HeavyReadLimits{}.rows;
  int64_t watches_per_token = WatchLimits{}.max_watchers_per_token;

  bool InRange() const {
    return db_connections >= 1 && db_connections <= 1000 && http_threads >= 1 && http_threads <= 1000 &&
           db_wait >= absl::ZeroDuration() && db_wait <= absl::Seconds(3600) && StatementTimeoutInRange() &&
           http_read_timeout >= absl::Seconds(1) && http_read_timeout <= absl::Seconds(3600) && max_requests >= 1 &&
           max_requests <= 10000 && max_requests_per_token >= 1 && max_requests_per_token <= max_requests &&
           watches_per_token >= 1 && watches_per_token <= 1000 && max_heavy_reads >= 1 &&
           max_heavy_reads <= max_requests && heavy_read_rows >= 1;
  }
  // PostgreSQL's statement_timeout is whole milliseconds, and 0 means none:
  // a shorter timeout than 1ms would turn into no limit at all.
  bool StatementTimeoutInRange() const {
    return db_statement_timeout == absl::ZeroDuration() ||
           (db_statement_timeout >= absl::Milliseconds(1) && db_statement_timeout <= absl::Seconds(86400));
  }
};

// Every flag of fleetcap-api, in the order --help lists them.
void RegisterApiFlags(FlagSet& flags, ApiOptions& options, LimitFlags& limits) {
  ApiServerOptions& server = options.server;
  RegisterDaemonFlags(flags, &options.daemon);
  flags.String("grpc-listen", &server.grpc_listen, "gRPC HOST:PORT (port 0 picks a free one)");
  flags.String("http-listen", &server.http_listen, "HTTP/JSON HOST:PORT (port 0 picks a free one; empty: no HTTP)");
  flags.String("tls-cert", &server.tls.cert, "PEM certificate for gRPC and HTTPS; empty for plaintext");
  flags.String("tls-key", &server.tls.key, "PEM private key of --tls-cert");
  flags.String("tls-client-ca", &server.tls.client_ca,
               "PEM CA that client certificates must chain to; empty: none asked");
  flags.String("web-root", &server.web_root,
               "the built dashboard (web/dist) to serve at / on --http-listen; empty: none", "FLEETCAP_WEB_ROOT");
  flags.Bool("grpc-reflection", &server.grpc_reflection,
             "serve gRPC server reflection, which answers without a token (for grpcurl on a trusted network)");
  flags.Secret("db-read", &options.db_read,
               "PostgreSQL libpq URI for the heavy reads (usage, chargeback), e.g. with "
               "target_session_attrs=prefer-standby; empty: --db",
               "FLEETCAP_DB_READ");
  flags.Int("db-connections", &limits.db_connections, "PostgreSQL connections shared by all requests");
  flags.Duration("db-wait", &limits.db_wait,
                 "seconds (or a duration: 500ms, 1m) a request waits for a free database connection before "
                 "UNAVAILABLE (HTTP 503)");
  flags.Duration("db-statement-timeout", &limits.db_statement_timeout,
                 "seconds (or a duration: 90s, 2m) any one database statement may run before DEADLINE_EXCEEDED "
                 "(HTTP 504); 0: no limit");
  flags.Duration("http-read-timeout", &limits.http_read_timeout,
                 "seconds (or a duration: 30s, 1m) an HTTP connection may stay silent, and a request may take from "
                 "its first line to the end of its body (then HTTP 408)");
  flags.Int("http-threads", &limits.http_threads,
            "HTTP requests handled at once, each on its own thread; connections, idle or slow, hold no thread");
  flags.Int("http-max-connections", &limits.http_max_connections,
            "open HTTP connections at most (each takes a file descriptor; the server raises its limit of open files "
            "to the hard limit)");
  flags.Int("http-max-connections-per-address", &limits.http_max_connections_per_address,
            "open HTTP connections at most from one client address; 0: no cap");
  flags.Int("max-requests", &limits.max_requests,
            "requests (gRPC and HTTP) running at once; past it RESOURCE_EXHAUSTED (HTTP 429 with Retry-After)");
  flags.Int("max-requests-per-token", &limits.max_requests_per_token,
            "requests of any one token running at once; past it RESOURCE_EXHAUSTED (HTTP 429 with Retry-After)");
  flags.Int("max-heavy-reads", &limits.max_heavy_reads,
            "heavy reads (past --heavy-read-rows) running at once, one per token; past it UNAVAILABLE (HTTP 503 "
            "with Retry-After)");
  flags.Int("heavy-read-rows", &limits.heavy_read_rows,
            "stored rows past which a read is heavy (the database's estimate, before it runs)");
  flags.Int("max-watches-per-token", &limits.watches_per_token,
            "WatchRecommendations streams one token may hold at once (each holds a gRPC thread; 64 in all)");
  flags.Int("ttl-days", &limits.init_ttl_days, "init: lifetime of the bootstrap admin token, in days");
}

absl::Status CheckLimits(const LimitFlags& limits) {
  if (!limits.InRange()) {
    return absl::InvalidArgumentError(
        "--db-connections, --http-threads and --max-watches-per-token take 1 to 1000, --http-read-timeout 1 to 3600, "
        "--db-wait 0 to 3600, --db-statement-timeout 0 to 86400, --max-requests 1 to 10000, "
        "--max-requests-per-token 1 to --max-requests, --max-heavy-reads 1 to --max-requests, --heavy-read-rows 1 "
        "or more");
  }
  if (limits.http_max_connections < 1 || limits.http_max_connections > 1000000 ||
      limits.http_max_connections_per_address < 0 || limits.http_max_connections_per_address > 1000000) {
    return absl::InvalidArgumentError(
        "--http-max-connections takes 1 to 1000000, --http-max-connections-per-address 0 to 1000000");
  }
  return absl::OkStatus();
}

// The limits as the daemon and the server take them.
void ApplyLimits(const LimitFlags& limits, ApiOptions& options) {
  ApiServerOptions& server = options.server;
  options.daemon.db_connections = static_cast<int>(limits.db_connections);
  options.daemon.db_limits = {limits.db_wait, limits.db_statement_timeout};
  server.http_limits.read_timeout = limits.http_read_timeout;
  server.http_limits.threads = static_cast<int>(limits.http_threads);
  server.http_limits.max_connections = static_cast<int>(limits.http_max_connections);
  server.http_limits.max_connections_per_address = static_cast<int>(limits.http_max_connections_per_address);
  server.admission.total = static_cast<int>(limits.max_requests);
  server.admission.per_token = static_cast<int>(limits.max_requests_per_token);
  server.heavy_reads.total = static_cast<int>(limits.max_heavy_reads);
  server.heavy_reads.rows = limits.heavy_read_rows;
  server.watch_limits.max_watchers_per_token = static_cast<int>(limits.watches_per_token);
  options.init_ttl = absl::Hours(24 * limits.init_ttl_days);
}

}  // namespace

absl::StatusOr<ApiOptions> ParseApiFlags(const std::vector<std::string>& args, const Environment& env) {
  ApiOptions options;
  LimitFlags limits;
  FlagSet flags("fleetcap-api", kUsage, env);
  RegisterApiFlags(flags, options, limits);
  FLEETCAP_ASSIGN_OR_RETURN(FlagSet::Parsed parsed, flags.Parse(args));
  if (parsed.help) {
    options.daemon.help = flags.Help();
    return options;
  }
  if (parsed.version) {
    options.version = true;
    return options;
  }
  FLEETCAP_RETURN_IF_ERROR(CheckLimits(limits));
  options.init = !parsed.positional.empty() && parsed.positional.front() == "init";
  if (parsed.positional.size() > (options.init ? 1u : 0u)) {
    return absl::InvalidArgumentError(absl::StrCat("unexpected argument \"", parsed.positional.back(), "\""));
  }
  FLEETCAP_RETURN_IF_ERROR(CheckLogLevel(options.daemon.log_level));
  ApplyLimits(limits, options);
  return options;
}

absl::Status RunApi(const ApiOptions& options) {
  // Answers of tens of MB come and go; their memory must go back (common/memory_return.h).
  MapLargeBlocksAlone();
  FLEETCAP_ASSIGN_OR_RETURN(auto daemon, Daemon::Start(options.daemon, store::CheckSchema));
  // The heavy reads' own pool when --db-read names another server (a standby):
  // the same size and limits as the main one, and like it, it reconnects a
  // connection found broken on its next lease.
  std::unique_ptr<PgPool> read_pool;
  if (!options.db_read.empty()) {
    auto opened = PgPool::Open(options.db_read, options.daemon.db_connections, options.daemon.db_limits);
    if (!opened.ok())
      return absl::Status(opened.status().code(), absl::StrCat("--db-read: ", opened.status().message()));
    read_pool = std::move(*opened);
  }
  FLEETCAP_ASSIGN_OR_RETURN(auto server,
                            ApiServer::Start(options.server, daemon->pool(), *daemon->registry(), read_pool.get()));
  // One line on stdout that scripts and tests read to learn the bound ports.
  std::cout << "fleetcap-api ready grpc=" << server->grpc_port() << " http=" << server->http_port()
            << " metrics=" << daemon->metrics_port() << std::endl;
  auto log = Logger("api");
  log->info("serving gRPC on port {}, HTTP on port {}", server->grpc_port(), server->http_port());
  log->info("signal {}: shutting down", daemon->WaitForStop());
  server->Shutdown();
  return absl::OkStatus();
}

}  // namespace fleetcap::api

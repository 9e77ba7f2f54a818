// fleetcap-api: serves the gRPC API and its HTTP/JSON gateway.
// `fleetcap-api init` creates the first admin token of a new installation
// and prints its secret once.

#include <cstdio>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/flags.h"
#include "common/logging.h"
#include "common/signals.h"
#include "fleetcap_version.h"
#include "services/api/api_server.h"
#include "common/openssl_compat/openssl_compat.h"
#include "services/api/init_command.h"

int main(int argc, char** argv) {
  using namespace fleetcap;
  BlockTerminationSignals();
  // Keeps the OpenSSL 3 shim for civetweb's HTTPS linked in (openssl_compat.h).
  if (fleetcap_openssl_compat_loaded() != 1) return 1;

  api::ApiServerOptions options;
  std::string log_level = "info";
  int64_t init_ttl_days = 365;
  int64_t db_connections = options.db_connections;
  int64_t db_wait_seconds = absl::ToInt64Seconds(options.db_wait);
  int64_t db_statement_timeout_seconds = absl::ToInt64Seconds(options.db_statement_timeout);
  int64_t http_read_timeout_seconds = absl::ToInt64Seconds(options.http_limits.read_timeout);
  int64_t http_threads = options.http_limits.threads;
  FlagSet flags("fleetcap-api", "[init] [flags]\n\nServes the fleetcap gRPC services and the same data as JSON under /v1/.\n"
                                "`fleetcap-api init` creates the first admin token and prints it once.");
  flags.String("db", &options.db, "PostgreSQL libpq URI", "FLEETCAP_DB");
  flags.Bool("migrate", &options.migrate, "apply pending schema migrations at start");
  flags.String("grpc-listen", &options.grpc_listen, "gRPC HOST:PORT (port 0 picks a free one)");
  flags.String("http-listen", &options.http_listen, "HTTP/JSON HOST:PORT (port 0 picks a free one; empty: no HTTP)");
  flags.String("metrics-listen", &options.metrics_listen, "Prometheus /metrics HOST:PORT; empty for none");
  flags.String("log-level", &log_level, "trace, debug, info, warn, error, critical or off");
  flags.String("tls-cert", &options.tls.cert, "PEM certificate for gRPC and HTTPS; empty for plaintext");
  flags.String("tls-key", &options.tls.key, "PEM private key of --tls-cert");
  flags.String("tls-client-ca", &options.tls.client_ca, "PEM CA that client certificates must chain to; empty: none asked");
  flags.Int("db-connections", &db_connections, "PostgreSQL connections shared by all requests");
  flags.Int("db-wait", &db_wait_seconds,
            "seconds a request waits for a free database connection before UNAVAILABLE (HTTP 503)");
  flags.Int("db-statement-timeout", &db_statement_timeout_seconds,
            "seconds any one database statement may run before DEADLINE_EXCEEDED (HTTP 504); 0: no limit");
  flags.Int("http-read-timeout", &http_read_timeout_seconds,
            "seconds an HTTP client has to send its request headers, and again its body");
  flags.Int("http-threads", &http_threads, "HTTP worker threads (each serves one connection at a time)");
  flags.Int("ttl-days", &init_ttl_days, "init: lifetime of the bootstrap admin token, in days");

  auto parsed = flags.Parse(Args(argc, argv));
  if (!parsed.ok()) {
    std::cerr << "fleetcap-api: " << parsed.status().message() << "\n";
    return 2;
  }
  if (parsed->help) {
    std::cout << flags.Help();
    return 0;
  }
  if (parsed->version) {
    std::cout << "fleetcap-api " << FLEETCAP_VERSION << "\n";
    return 0;
  }
  if (db_connections < 1 || db_connections > 1000 || http_threads < 1 || http_threads > 1000 ||
      db_wait_seconds < 0 || db_wait_seconds > 3600 || db_statement_timeout_seconds < 0 ||
      db_statement_timeout_seconds > 86400 || http_read_timeout_seconds < 1 || http_read_timeout_seconds > 3600) {
    std::cerr << "fleetcap-api: --db-connections and --http-threads take 1 to 1000, --http-read-timeout 1 to 3600, "
                 "--db-wait 0 to 3600, --db-statement-timeout 0 to 86400\n";
    return 2;
  }
  options.db_connections = static_cast<int>(db_connections);
  options.db_wait = absl::Seconds(db_wait_seconds);
  options.db_statement_timeout = absl::Seconds(db_statement_timeout_seconds);
  options.http_limits.read_timeout = absl::Seconds(http_read_timeout_seconds);
  options.http_limits.threads = static_cast<int>(http_threads);
  const bool init = !parsed->positional.empty() && parsed->positional.front() == "init";
  if (parsed->positional.size() > (init ? 1u : 0u)) {
    std::cerr << "fleetcap-api: unexpected argument \"" << parsed->positional.back() << "\"\n";
    return 2;
  }
  if (auto status = InitLogging(log_level); !status.ok()) {
    std::cerr << "fleetcap-api: " << status.message() << "\n";
    return 2;
  }
  auto log = Logger("api");
  if (init) return api::RunInit(options.db, options.migrate, absl::Hours(24 * init_ttl_days), std::cout, std::cerr);
  auto server = api::ApiServer::Start(options);
  if (!server.ok()) {
    log->error("cannot start: {}", server.status().ToString());
    return 1;
  }
  // One line on stdout that scripts and tests read to learn the bound ports.
  std::cout << "fleetcap-api ready grpc=" << (*server)->grpc_port() << " http=" << (*server)->http_port()
            << " metrics=" << (*server)->metrics_port() << std::endl;
  log->info("serving gRPC on port {}, HTTP on port {}", (*server)->grpc_port(), (*server)->http_port());
  int signal = WaitForTerminationSignal();
  log->info("signal {}: shutting down", signal);
  (*server)->Shutdown();
  return 0;
}

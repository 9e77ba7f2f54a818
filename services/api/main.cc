// fleetcap-api: serves the gRPC API and its HTTP/JSON gateway.

#include <cstdio>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/flags.h"
#include "common/logging.h"
#include "common/signals.h"
#include "fleetcap_version.h"
#include "services/api/api_server.h"

int main(int argc, char** argv) {
  using namespace fleetcap;
  BlockTerminationSignals();

  api::ApiServerOptions options;
  std::string log_level = "info";
  FlagSet flags("fleetcap-api", "[flags]\n\nServes FleetService over gRPC and the same data as JSON under /v1/.");
  flags.String("db", &options.db, "PostgreSQL libpq URI", "FLEETCAP_DB");
  flags.Bool("migrate", &options.migrate, "apply pending schema migrations at start");
  flags.String("grpc-listen", &options.grpc_listen, "gRPC HOST:PORT (port 0 picks a free one)");
  flags.String("http-listen", &options.http_listen, "HTTP/JSON HOST:PORT (port 0 picks a free one)");
  flags.String("metrics-listen", &options.metrics_listen, "Prometheus /metrics HOST:PORT; empty for none");
  flags.String("log-level", &log_level, "trace, debug, info, warn, error, critical or off");

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
  if (!parsed->positional.empty()) {
    std::cerr << "fleetcap-api: unexpected argument \"" << parsed->positional.front() << "\"\n";
    return 2;
  }
  if (auto status = InitLogging(log_level); !status.ok()) {
    std::cerr << "fleetcap-api: " << status.message() << "\n";
    return 2;
  }
  auto log = Logger("api");
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

#pragma once
// Serves a process's own Prometheus metrics at http://<listen>/metrics and,
// on the same listener, its probes for an orchestrator:
//   /healthz  200 while the process answers at all (liveness);
//   /readyz   200 when `readiness` says OK, else 503 with its one-line reason.
// The registry is owned by the caller and shared with the components that
// register their metric families in it.

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/clock.h"
#include "common/http_server.h"
#include "prometheus/registry.h"

namespace fleetcap {

class MetricsServer {
 public:
  // Answers whether the process can do its work; called by /readyz, so it
  // must be cheap (see common/readiness.h). Null: always ready.
  using Readiness = std::function<absl::Status()>;

  // `listen` is HOST:PORT; port 0 picks a free one (see port()). `clock`
  // (for the server's read deadlines) must outlive the server.
  static absl::StatusOr<std::unique_ptr<MetricsServer>> Start(const std::string& listen,
                                                              std::shared_ptr<prometheus::Registry> registry,
                                                              Readiness readiness = nullptr,
                                                              const Clock* clock = RealClock::Instance());
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  int port() const { return server_->port(); }

 private:
  MetricsServer(std::shared_ptr<prometheus::Registry> registry, Readiness readiness)
      : registry_(std::move(registry)), readiness_(std::move(readiness)) {}

  HttpServerResponse Serve(const HttpServerRequest& request) const;

  std::shared_ptr<prometheus::Registry> registry_;
  Readiness readiness_;
  std::unique_ptr<HttpServer> server_;  // last: stopped before what its handlers use
};

}  // namespace fleetcap

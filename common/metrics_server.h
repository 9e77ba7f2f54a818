#pragma once
// Serves a process's own Prometheus metrics at http://<listen>/metrics.
// The registry is owned by the caller and shared with the components that
// register their metric families in it.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "prometheus/exposer.h"
#include "prometheus/registry.h"

namespace fleetcap {

class MetricsServer {
 public:
  // `listen` is HOST:PORT; port 0 picks a free one (see port()).
  static absl::StatusOr<std::unique_ptr<MetricsServer>> Start(const std::string& listen,
                                                              std::shared_ptr<prometheus::Registry> registry);

  int port() const { return port_; }

 private:
  MetricsServer(std::unique_ptr<prometheus::Exposer> exposer, int port) : exposer_(std::move(exposer)), port_(port) {}

  std::unique_ptr<prometheus::Exposer> exposer_;
  int port_;
};

}  // namespace fleetcap

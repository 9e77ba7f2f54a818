#include "common/metrics_server.h"

#include "absl/strings/str_cat.h"

namespace fleetcap {

absl::StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(const std::string& listen,
                                                                    std::shared_ptr<prometheus::Registry> registry) {
  try {
    auto exposer = std::make_unique<prometheus::Exposer>(listen, /*num_threads=*/1);
    exposer->RegisterCollectable(registry);
    auto ports = exposer->GetListeningPorts();
    int port = ports.empty() ? 0 : ports.front();
    return std::unique_ptr<MetricsServer>(new MetricsServer(std::move(exposer), port));
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat("--metrics-listen: cannot listen on \"", listen, "\": ", e.what()));
  }
}

}  // namespace fleetcap

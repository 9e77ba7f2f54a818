#include "services/api/api_metrics.h"

namespace fleetcap::api {

ApiMetrics::ApiMetrics(prometheus::Registry& registry)
    : requests_(prometheus::BuildCounter()
                    .Name("fleetcap_api_requests_total")
                    .Help("API requests served, by transport, method and status code")
                    .Register(registry)),
      latency_(prometheus::BuildHistogram()
                   .Name("fleetcap_api_request_duration_seconds")
                   .Help("API request latency, by transport and method")
                   .Register(registry)) {}

void ApiMetrics::Observe(const std::string& transport, const std::string& method, const std::string& code,
                         double seconds) {
  requests_.Add({{"transport", transport}, {"method", method}, {"code", code}}).Increment();
  prometheus::Histogram* histogram = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = latency_by_method_[transport + " " + method];
    if (slot == nullptr) {
      slot = &latency_.Add({{"transport", transport}, {"method", method}},
                           prometheus::Histogram::BucketBoundaries{0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5});
    }
    histogram = slot;
  }
  histogram->Observe(seconds);
}

}  // namespace fleetcap::api

#pragma once
// The API's own metrics, built once and kept by reference (prometheus-cpp
// families are created per label set on first use and then cached here).

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "prometheus/counter.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace fleetcap::api {

class ApiMetrics {
 public:
  explicit ApiMetrics(prometheus::Registry& registry);

  // One finished request: `transport` is grpc or http, `method` the RPC or
  // route, `code` the canonical status code name.
  void Observe(const std::string& transport, const std::string& method, const std::string& code, double seconds);

 private:
  prometheus::Family<prometheus::Counter>& requests_;
  prometheus::Family<prometheus::Histogram>& latency_;
  std::mutex mu_;
  std::map<std::string, prometheus::Histogram*> latency_by_method_;  // guarded by mu_
};

}  // namespace fleetcap::api

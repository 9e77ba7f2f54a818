#pragma once
// A fixture exporter for a real Prometheus to scrape: dcgm-exporter, GKE TPU
// and AMD device-metrics-exporter text exposition, every sample with an
// explicit timestamp from a fake clock that moves `step_ms` per scrape, so
// a test sees minutes of telemetry in seconds. Values are a pure function
// of the scrape number (see Value()), so tests can recompute them.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "common/http_server.h"

namespace fleetcap::testing {

class FixtureExporter {
 public:
  FixtureExporter(int64_t start_ms, int64_t step_ms);
  bool Start();  // on 127.0.0.1, a free port
  int port() const { return port_; }
  int64_t scrapes() const { return scrapes_.load(); }
  // The fake time of the next scrape.
  int64_t next_ms() const { return start_ms_ + scrapes_.load() * step_ms_; }
  // The text a scrape numbered k serves.
  std::string Exposition(int64_t k) const;

 private:
  int64_t start_ms_, step_ms_;
  std::atomic<int64_t> scrapes_{0};
  std::unique_ptr<HttpServer> server_;  // last: stopped before the counter its handler uses
  int port_ = 0;
};

}  // namespace fleetcap::testing

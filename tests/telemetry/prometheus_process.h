#pragma once
// A real Prometheus (Debian's 2.42, /usr/bin/prometheus) for tests: its own
// temp folder for config and TSDB, a free port, waited on until ready.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tests/support/subprocess.h"
#include "tests/support/test_dir.h"

namespace fleetcap::testing {

struct PrometheusProcess {
  TestDir dir{"prom"};  // declared first: removed after the process has stopped
  std::unique_ptr<Subprocess> process;
  int port = 0;
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port); }
  ~PrometheusProcess();
};

// `config_body` is prometheus.yml's text. `extra_flags` are added as given.
absl::StatusOr<std::unique_ptr<PrometheusProcess>> StartPrometheus(const std::string& config_body,
                                                                   const std::vector<std::string>& extra_flags = {});

}  // namespace fleetcap::testing

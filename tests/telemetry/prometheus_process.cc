#include "tests/telemetry/prometheus_process.h"

#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"
#include "tests/support/http_get.h"
#include "tests/telemetry/telemetry_support.h"

namespace fleetcap::testing {

PrometheusProcess::~PrometheusProcess() {
  if (process) process->Stop(SIGTERM);
}

absl::StatusOr<std::unique_ptr<PrometheusProcess>> StartPrometheus(const std::string& config_body,
                                                                   const std::vector<std::string>& extra_flags) {
  auto prom = std::make_unique<PrometheusProcess>();
  if (prom->dir.path().empty()) return absl::InternalError("no directory for Prometheus");
  std::ofstream(prom->dir.path() + "/prometheus.yml") << config_body;
  std::string last_err;
  for (int attempt = 0; attempt < 3; ++attempt) {
    prom->port = FreePort();
    std::vector<std::string> argv = {"/usr/bin/prometheus", "--config.file=" + prom->dir.path() + "/prometheus.yml",
                                     "--storage.tsdb.path=" + prom->dir.path() + "/data",
                                     absl::StrCat("--web.listen-address=127.0.0.1:", prom->port), "--log.level=warn"};
    argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
    FLEETCAP_ASSIGN_OR_RETURN(auto process, Subprocess::Start(argv));
    const absl::Time deadline = absl::Now() + absl::Seconds(20);
    while (absl::Now() < deadline) {
      auto ready = HttpGet(prom->url() + "/-/ready");
      if (ready.ok() && ready->status == 200) {
        prom->process = std::move(process);
        return prom;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    // Not ready in time (the port may have been taken meanwhile): try another.
    last_err = process->Stop(SIGKILL).err;
  }
  return absl::UnavailableError("Prometheus did not become ready: " + last_err);
}

}  // namespace fleetcap::testing

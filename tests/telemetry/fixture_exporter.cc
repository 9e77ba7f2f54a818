#include "tests/telemetry/fixture_exporter.h"

#include "absl/strings/str_cat.h"

namespace fleetcap::testing {

FixtureExporter::FixtureExporter(int64_t start_ms, int64_t step_ms) : start_ms_(start_ms), step_ms_(step_ms) {}

bool FixtureExporter::Start() {
  HttpServerOptions options;
  options.listen = "127.0.0.1:0";
  options.handler_threads = 2;
  options.keep_alive = true;  // as Prometheus scrapes
  HttpServer::Handlers handlers;
  handlers.handle = [this](const HttpServerRequest&) {
    HttpServerResponse answer;
    answer.content_type = "text/plain; version=0.0.4";
    answer.body = Exposition(scrapes_.fetch_add(1));
    return answer;
  };
  auto server = HttpServer::Start(options, std::move(handlers), RealClock::Instance());
  if (!server.ok()) return false;
  server_ = std::move(*server);
  port_ = server_->port();
  return port_ != 0;
}

std::string FixtureExporter::Exposition(int64_t k) const {
  const std::string ts = absl::StrCat(" ", start_ms_ + k * step_ms_, "\n");
  std::string out;
  auto gauge = [&](const std::string& name, const std::string& labels, double value) {
    absl::StrAppend(&out, "# TYPE ", name, " gauge\n", name, "{", labels, "} ", value, ts);
  };
  auto counter = [&](const std::string& name, const std::string& labels, double value) {
    absl::StrAppend(&out, "# TYPE ", name, " counter\n", name, "{", labels, "} ", value, ts);
  };
  for (int g = 0; g < 2; ++g) {
    std::string labels = absl::StrCat("gpu=\"", g, "\",UUID=\"GPU-fixture-", g, "\",device=\"nvidia", g,
                                      "\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node-a\"");
    if (g == 0) absl::StrAppend(&labels, ",container=\"main\",namespace=\"ml\",pod=\"train-0\"");
    const int util = static_cast<int>((k * 7 + g * 31) % 101);
    gauge("DCGM_FI_DEV_GPU_UTIL", labels, util);
    gauge("DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, util / 100.0);
    gauge("DCGM_FI_PROF_SM_ACTIVE", labels, ((k * 3 + g) % 97) / 100.0);
    gauge("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", labels, ((k * 5 + g) % 89) / 100.0);
    gauge("DCGM_FI_PROF_DRAM_ACTIVE", labels, ((k * 11 + g) % 83) / 100.0);
    gauge("DCGM_FI_DEV_FB_USED", labels, 20000 + (k % 50) * 10);
    gauge("DCGM_FI_DEV_FB_FREE", labels, 61000 - (k % 50) * 10);
    gauge("DCGM_FI_DEV_POWER_USAGE", labels, 200.5 + (k % 13));
    // mJ since the driver loaded; never resets here.
    counter("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", labels, 1e9 + g * 1e8 + k * (k + 1) * 1000.0);
  }
  const std::string tpu =
      "accelerator_id=\"tpu-fixture-0\",model=\"tpu-v5p\",tpu_topology=\"2x2x1\","
      "namespace=\"ml\",pod=\"tpu-job-0\"";
  gauge("duty_cycle", tpu, (k * 13) % 100);
  gauge("tensorcore_utilization", tpu, (k * 17) % 100);
  gauge("memory_bandwidth_utilization", tpu, (k * 19) % 100);
  gauge("memory_used", tpu, 1e9 + (k % 7) * 1e6);
  gauge("memory_total", tpu, 95e9);
  const std::string amd = "gpu_id=\"0\",serial_number=\"AMD-fixture-0\",card_model=\"MI300X\",hostname=\"node-c\"";
  gauge("gpu_gfx_activity", amd, (k * 23) % 100);
  gauge("gpu_used_vram", amd, 4096 + k % 9);
  gauge("gpu_total_vram", amd, 196608);
  gauge("gpu_power_usage", amd, 500 + k % 11);
  return out;
}

}  // namespace fleetcap::testing

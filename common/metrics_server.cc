#include "common/metrics_server.h"

#include <civetweb.h>

#include <sstream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/logging.h"
#include "prometheus/text_serializer.h"

namespace fleetcap {
namespace {

int Reply(mg_connection* conn, int status, const char* content_type, const std::string& body) {
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: no-store\r\n"
            "Connection: close\r\n\r\n",
            status, mg_get_response_code_text(conn, status), content_type, body.size());
  mg_write(conn, body.data(), body.size());
  return status;
}

}  // namespace

// prometheus-cpp's Exposer serves /metrics only and answers 200 to every path
// it knows, so the probes, which must be able to say 503, share this small
// civetweb server with the metrics instead.
absl::StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(const std::string& listen,
                                                                    std::shared_ptr<prometheus::Registry> registry,
                                                                    Readiness readiness) {
  std::unique_ptr<MetricsServer> server(new MetricsServer(std::move(registry), std::move(readiness)));
  // Two threads: a scrape never waits behind a readiness check.
  const char* options[] = {"listening_ports", listen.c_str(), "num_threads", "2", nullptr};
  mg_callbacks callbacks{};
  callbacks.log_message = [](const mg_connection*, const char* message) {
    Logger("metrics")->warn("{}", message);
    return 1;
  };
  server->ctx_ = mg_start(&callbacks, nullptr, options);
  if (server->ctx_ == nullptr) {
    return absl::UnavailableError(absl::StrCat("--metrics-listen: cannot listen on \"", listen, "\""));
  }
  mg_set_request_handler(server->ctx_, "/metrics$", &MetricsServer::ServeMetrics, server.get());
  mg_set_request_handler(server->ctx_, "/healthz$", &MetricsServer::ServeHealthz, server.get());
  mg_set_request_handler(server->ctx_, "/readyz$", &MetricsServer::ServeReadyz, server.get());
  mg_server_port ports[4];
  const int n = mg_get_server_ports(server->ctx_, 4, ports);
  server->port_ = n > 0 ? ports[0].port : 0;
  return server;
}

MetricsServer::~MetricsServer() {
  if (ctx_ != nullptr) mg_stop(ctx_);
}

int MetricsServer::ServeMetrics(mg_connection* conn, void* self) {
  const auto* server = static_cast<const MetricsServer*>(self);
  std::ostringstream out;
  prometheus::TextSerializer().Serialize(out, server->registry_->Collect());
  return Reply(conn, 200, "text/plain; version=0.0.4; charset=utf-8", out.str());
}

int MetricsServer::ServeHealthz(mg_connection* conn, void*) { return Reply(conn, 200, "text/plain", "ok\n"); }

int MetricsServer::ServeReadyz(mg_connection* conn, void* self) {
  const auto* server = static_cast<const MetricsServer*>(self);
  const absl::Status ready = server->readiness_ ? server->readiness_() : absl::OkStatus();
  if (ready.ok()) return Reply(conn, 200, "text/plain", "ready\n");
  // One line, whatever the database's message held.
  std::string reason = absl::StrReplaceAll(ready.message(), {{"\r", " "}, {"\n", " "}});
  return Reply(conn, 503, "text/plain", absl::StrCat("not ready: ", reason, "\n"));
}

}  // namespace fleetcap

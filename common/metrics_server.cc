#include "common/metrics_server.h"

#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "common/status_macros.h"
#include "prometheus/text_serializer.h"

namespace fleetcap {
namespace {

HttpServerResponse MetricsAnswer(int status, const char* content_type, std::string body) {
  HttpServerResponse answer;
  answer.status = status;
  answer.content_type = content_type;
  answer.body = std::move(body);
  answer.headers = {{"Cache-Control", "no-store"}};
  return answer;
}

}  // namespace

// prometheus-cpp's Exposer serves /metrics only and answers 200 to every path
// it knows, so the probes, which must be able to say 503, share this small
// server with the metrics instead.
absl::StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(const std::string& listen,
                                                                    std::shared_ptr<prometheus::Registry> registry,
                                                                    Readiness readiness, const Clock* clock) {
  std::unique_ptr<MetricsServer> metrics(new MetricsServer(std::move(registry), std::move(readiness)));
  HttpServerOptions options;
  options.listen = listen;
  options.listen_flag = "--metrics-listen";
  options.log_name = "metrics";
  // Two handlers: a scrape never waits behind a readiness check.
  options.handler_threads = 2;
  // Scrapers and probes send no body; connections close after each answer.
  options.max_body_bytes = 0;
  options.max_connections = 1024;
  HttpServer::Handlers handlers;
  handlers.handle = [self = metrics.get()](const HttpServerRequest& request) { return self->Serve(request); };
  FLEETCAP_ASSIGN_OR_RETURN(metrics->server_, HttpServer::Start(options, std::move(handlers), clock));
  return metrics;
}

HttpServerResponse MetricsServer::Serve(const HttpServerRequest& request) const {
  if (request.path == "/metrics") {
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, registry_->Collect());
    return MetricsAnswer(200, "text/plain; version=0.0.4; charset=utf-8", out.str());
  }
  if (request.path == "/healthz") return MetricsAnswer(200, "text/plain", "ok\n");
  if (request.path == "/readyz") {
    const absl::Status ready = readiness_ ? readiness_() : absl::OkStatus();
    if (ready.ok()) return MetricsAnswer(200, "text/plain", "ready\n");
    // One line, whatever the database's message held.
    std::string reason = absl::StrReplaceAll(ready.message(), {{"\r", " "}, {"\n", " "}});
    return MetricsAnswer(503, "text/plain", absl::StrCat("not ready: ", reason, "\n"));
  }
  return MetricsAnswer(404, "text/plain", "not found\n");
}

}  // namespace fleetcap

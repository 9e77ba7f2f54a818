#include "ingest/telemetry/remote_write_server.h"

#include <civetweb.h>

#include <algorithm>
#include <atomic>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "ingest/telemetry/remote_write_decoder.h"

namespace fleetcap::telemetry {
namespace {

int Reply(mg_connection* conn, TelemetryMetrics* metrics, int status, const std::string& message) {
  metrics->Requests(status).Increment();
  const std::string body = message.empty() ? "" : message + "\n";
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n%s\r\n", status,
            mg_get_response_code_text(conn, status), body.size(),
            status == 413 ? "Connection: close\r\n" : status == 503 ? "Retry-After: 1\r\n" : "");
  if (!body.empty()) mg_write(conn, body.data(), body.size());
  return status;
}

// Logs the first few of each kind of client error with a sample, then stays quiet.
void LogRejected(const std::string& what) {
  static std::atomic<int> logged{0};
  if (logged.fetch_add(1) < 5) Logger("telemetry")->warn("remote_write request rejected: {}", what);
}

}  // namespace

absl::StatusOr<std::unique_ptr<RemoteWriteServer>> RemoteWriteServer::Start(const RemoteWriteOptions& options,
                                                                            const Normaliser* normaliser,
                                                                            PushPipeline* pipeline,
                                                                            TelemetryMetrics* metrics) {
  std::unique_ptr<RemoteWriteServer> server(new RemoteWriteServer());
  server->options_ = options;
  server->normaliser_ = normaliser;
  server->pipeline_ = pipeline;
  server->metrics_ = metrics;
  const std::string threads = std::to_string(options.threads);
  // Keep-alive: Prometheus posts over long-lived connections, one a shard;
  // one idle for 5 s gives its thread back.
  const char* civet_options[] = {"listening_ports", options.listen.c_str(), "num_threads", threads.c_str(),
                                 "request_timeout_ms", "120000", "enable_keep_alive", "yes",
                                 "keep_alive_timeout_ms", "5000", nullptr};
  mg_callbacks callbacks{};
  server->ctx_ = mg_start(&callbacks, nullptr, civet_options);
  if (server->ctx_ == nullptr) {
    return absl::UnavailableError(absl::StrCat("--remote-write-listen: cannot listen on \"", options.listen, "\""));
  }
  mg_set_request_handler(server->ctx_, "/api/v1/write", &RemoteWriteServer::Handle, server.get());
  mg_server_port ports[4];
  const int n = mg_get_server_ports(server->ctx_, 4, ports);
  server->port_ = n > 0 ? ports[0].port : 0;
  return server;
}

RemoteWriteServer::~RemoteWriteServer() {
  if (ctx_ != nullptr) mg_stop(ctx_);
}

int RemoteWriteServer::Handle(mg_connection* conn, void* self) {
  return static_cast<RemoteWriteServer*>(self)->Serve(conn);
}

int RemoteWriteServer::Serve(mg_connection* conn) {
  const mg_request_info* info = mg_get_request_info(conn);
  if (std::string(info->request_method) != "POST") return Reply(conn, metrics_, 405, "POST only");
  if (info->content_length > static_cast<long long>(options_.max_body_bytes)) {
    LogRejected(absl::StrCat("body of ", info->content_length, " bytes"));
    return Reply(conn, metrics_, 413,
                 absl::StrCat("body of ", info->content_length, " bytes is over the limit of ",
                              options_.max_body_bytes));
  }
  std::string body;
  // Read straight into the body (civetweb's worker stacks are small), in
  // one piece when the length is known.
  constexpr size_t kChunk = 256 * 1024;
  const size_t expected = info->content_length > 0 ? static_cast<size_t>(info->content_length) : 0;
  for (;;) {
    const size_t have = body.size();
    const size_t want = have < expected ? expected - have : kChunk;
    body.resize(have + want);
    const int n = mg_read(conn, &body[have], want);
    body.resize(have + static_cast<size_t>(std::max(n, 0)));
    if (n <= 0) break;
    if (body.size() > options_.max_body_bytes) {
      LogRejected("chunked body over the limit");
      return Reply(conn, metrics_, 413, absl::StrCat("body is over the limit of ", options_.max_body_bytes, " bytes"));
    }
    if (expected > 0 && body.size() == expected) break;
  }
  if (info->content_length > 0 && body.size() != static_cast<size_t>(info->content_length)) {
    LogRejected("body shorter than its Content-Length");
    return Reply(conn, metrics_, 400, "body shorter than its Content-Length");
  }
  auto decoded = DecodeRemoteWrite(body, *normaliser_, options_.max_decoded_bytes);
  if (!decoded.ok()) {
    LogRejected(decoded.status().ToString());
    const int status = decoded.status().code() == absl::StatusCode::kResourceExhausted ? 413 : 400;
    return Reply(conn, metrics_, status, std::string(decoded.status().message()));
  }
  metrics_->Received("remote_write").Increment(static_cast<double>(decoded->samples_received));
  metrics_->Dropped("remote_write", decoded->drops);
  if (decoded->samples_usable == 0) return Reply(conn, metrics_, 204, "");

  const absl::Status accepted = pipeline_->Accept(body, std::move(*decoded));
  if (!accepted.ok()) {
    // Backpressure is a 503 as well: Prometheus retries every 5xx, but a
    // 429 only with retry_on_http_429 (off by default), dropping the data.
    if (accepted.code() == absl::StatusCode::kResourceExhausted) metrics_->Backpressure().Increment();
    return Reply(conn, metrics_, 503, std::string(accepted.message()));
  }
  return Reply(conn, metrics_, 204, "");
}

}  // namespace fleetcap::telemetry

#include "ingest/telemetry/remote_write_server.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "ingest/telemetry/remote_write_decoder.h"

namespace fleetcap::telemetry {
namespace {

// Compares in time independent of where the texts differ.
bool SameSecret(absl::string_view a, absl::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i % std::max<size_t>(b.size(), 1)]);
  return diff == 0;
}

// Logs the first few of each kind of client error with a sample, then stays quiet.
void LogRejected(const std::string& what) {
  static std::atomic<int> logged{0};
  if (logged.fetch_add(1) < 5) Logger("telemetry")->warn("remote_write request rejected: {}", what);
}

}  // namespace

bool IsLoopbackListen(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) return false;  // a bare port: every interface
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return host == "localhost" || host == "::1" || absl::StartsWith(host, "127.");
}

absl::StatusOr<std::unique_ptr<RemoteWriteServer>> RemoteWriteServer::Start(const RemoteWriteOptions& options,
                                                                            const Normaliser* normaliser,
                                                                            PushPipeline* pipeline,
                                                                            TelemetryMetrics* metrics,
                                                                            const Clock* clock) {
  std::unique_ptr<RemoteWriteServer> server(new RemoteWriteServer(clock));
  server->options_ = options;
  server->normaliser_ = normaliser;
  server->pipeline_ = pipeline;
  server->metrics_ = metrics;
  server->decode_budget_ = std::make_unique<DecodeBudget>(options.decode_budget_bytes);
  const bool authenticated = !options.bearer_token.empty() || (options.tls.enabled() && !options.tls.client_ca.empty());
  if (!authenticated && !options.trusted_network && !IsLoopbackListen(options.listen)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--remote-write-listen: \"", options.listen,
        "\" is not loopback and remote_write has no authentication: give --remote-write-bearer-token-file or "
        "--remote-write-tls-client-ca (with --remote-write-tls-cert and --remote-write-tls-key), "
        "or --remote-write-trusted-network if the network is trusted"));
  }
  HttpServerOptions http;
  http.listen = options.listen;
  http.listen_flag = "--remote-write-listen";
  http.tls = options.tls;
  http.tls_flag_prefix = "--remote-write-tls";
  http.read_timeout = options.read_timeout;
  http.max_body_bytes = options.max_body_bytes;
  http.handler_threads = options.threads;
  // Prometheus posts over long-lived connections, one a shard.
  http.keep_alive = true;
  http.log_name = "telemetry";
  HttpServer::Handlers handlers;
  RemoteWriteServer* self = server.get();
  handlers.admit = [self](HttpServerRequest& request) { return self->Admit(request); };
  handlers.handle = [self](const HttpServerRequest& request) { return self->Serve(request); };
  handlers.refuse_body = [self](const HttpServerRequest&, const absl::Status& problem) {
    LogRejected(problem.ToString());
    return self->Reply(absl::IsDeadlineExceeded(problem) ? 408 : 413, std::string(problem.message()));
  };
  FLEETCAP_ASSIGN_OR_RETURN(server->server_, HttpServer::Start(http, std::move(handlers), clock));
  server->port_ = server->server_->port();
  return server;
}

RemoteWriteServer::~RemoteWriteServer() = default;

HttpServerResponse RemoteWriteServer::Reply(int status, const std::string& message) const {
  metrics_->Requests(status).Increment();
  HttpServerResponse answer;
  answer.status = status;
  answer.body = message.empty() ? "" : message + "\n";
  if (status == 401) answer.headers.emplace_back("WWW-Authenticate", "Bearer");
  if (status == 503) answer.headers.emplace_back("Retry-After", "1");
  return answer;
}

std::optional<HttpServerResponse> RemoteWriteServer::Admit(const HttpServerRequest& request) const {
  // An answer given here leaves the body unread; the server closes the connection after it.
  if (!options_.bearer_token.empty()) {
    const std::string given = request.Header("Authorization");
    if (!absl::StartsWith(given, "Bearer ") || !SameSecret(absl::string_view(given).substr(7), options_.bearer_token)) {
      LogRejected("a valid bearer token is required");
      return Reply(401, "a valid bearer token is required");
    }
  }
  if (request.method != "POST") return Reply(405, "POST only");
  return std::nullopt;
}

HttpServerResponse RemoteWriteServer::Serve(const HttpServerRequest& request) {
  const std::string& body = request.body;
  auto decoded = DecodeRemoteWrite(body, *normaliser_, options_.max_decoded_bytes, decode_budget_.get());
  if (!decoded.ok()) {
    const absl::StatusCode code = decoded.status().code();
    // The budget taken by others is backpressure: retried, like a 503 below.
    if (code == absl::StatusCode::kUnavailable) {
      metrics_->Backpressure().Increment();
      return Reply(503, std::string(decoded.status().message()));
    }
    LogRejected(decoded.status().ToString());
    const int status = code == absl::StatusCode::kResourceExhausted ? 413 : 400;
    return Reply(status, std::string(decoded.status().message()));
  }
  // Refused before the log: a sample far ahead would close its device's
  // minutes past every real sample to come.
  decoded->samples_usable -= DropOutsideWindow(options_.window, clock_->Now(), &decoded->series, &decoded->drops);
  metrics_->Received("remote_write").Increment(static_cast<double>(decoded->samples_received));
  metrics_->Dropped("remote_write", decoded->drops);
  if (decoded->samples_usable == 0) return Reply(204, "");

  const absl::Status accepted = pipeline_->Accept(body, std::move(*decoded));
  if (!accepted.ok()) {
    // Backpressure is a 503 as well: Prometheus retries every 5xx, but a
    // 429 only with retry_on_http_429 (off by default), dropping the data.
    if (accepted.code() == absl::StatusCode::kResourceExhausted) metrics_->Backpressure().Increment();
    return Reply(503, std::string(accepted.message()));
  }
  return Reply(204, "");
}

}  // namespace fleetcap::telemetry

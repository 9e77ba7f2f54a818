#include "ingest/telemetry/remote_write_server.h"

#include <civetweb.h>

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

int Reply(mg_connection* conn, TelemetryMetrics* metrics, int status, const std::string& message) {
  metrics->Requests(status).Increment();
  const std::string body = message.empty() ? "" : message + "\n";
  // A request refused before its body was read leaves the body unread on
  // the connection: it is closed.
  const char* extra = status == 401   ? "WWW-Authenticate: Bearer\r\nConnection: close\r\n"
                      : status == 408 ? "Connection: close\r\n"
                      : status == 413 ? "Connection: close\r\n"
                      : status == 503 ? "Retry-After: 1\r\n"
                                      : "";
  mg_printf(conn, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n%s\r\n", status,
            mg_get_response_code_text(conn, status), body.size(), extra);
  if (!body.empty()) mg_write(conn, body.data(), body.size());
  return status;
}

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

// civetweb's own messages (failed TLS handshakes among them): any client can
// cause them, so only the first few are logged.
int LogServerMessage(const mg_connection*, const char* message) {
  static std::atomic<int> logged{0};
  if (logged.fetch_add(1) < 5) Logger("telemetry")->warn("remote_write server: {}", message);
  return 1;
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
  const std::string threads = std::to_string(options.threads);
  // Each blocking read waits at most the whole deadline; Serve bounds the
  // body's reads together (common/socket_deadlines.h).
  const std::string read_timeout_ms =
      std::to_string(std::max<int64_t>(1, absl::ToInt64Milliseconds(options.read_timeout)));
  std::string listening_ports = options.listen;
  // Keep-alive: Prometheus posts over long-lived connections, one a shard;
  // one idle for 5 s gives its thread back.
  std::vector<const char*> civet_options = {
      "num_threads",       threads.c_str(), "request_timeout_ms",    read_timeout_ms.c_str(),
      "enable_keep_alive", "yes",           "keep_alive_timeout_ms", "5000"};
  std::unique_ptr<CivetwebTls> civetweb_tls;  // needed until mg_start returns
  if (options.tls.enabled()) {
    FLEETCAP_ASSIGN_OR_RETURN(auto prepared, CivetwebTls::Prepare(options.tls, "--remote-write-tls"));
    civetweb_tls = std::move(prepared);
    listening_ports += "s";
    civetweb_tls->AppendOptions(&civet_options);
  }
  civet_options.insert(civet_options.begin(), {"listening_ports", listening_ports.c_str()});
  civet_options.push_back(nullptr);
  mg_callbacks callbacks{};
  callbacks.log_message = &LogServerMessage;
  server->ctx_ = mg_start(&callbacks, nullptr, civet_options.data());
  if (server->ctx_ == nullptr) {
    return absl::UnavailableError(absl::StrCat(
        "--remote-write-listen: cannot listen on \"", options.listen, "\"",
        options.tls.enabled() ? " with TLS (check --remote-write-tls-cert and --remote-write-tls-key)" : ""));
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
  // A request refused with its body unread: answered, then the connection
  // is shut down, so that the body is not read after all (civetweb would
  // read it to the end to keep the connection alive).
  const TcpConnection connection{info->server_port, info->remote_addr, info->remote_port};
  const auto refuse = [&](int status, const std::string& message) {
    LogRejected(message);
    Reply(conn, metrics_, status, message);
    ShutDownConnection(connection);
    return status;
  };
  if (!options_.bearer_token.empty()) {
    const char* authorization = mg_get_header(conn, "Authorization");
    const absl::string_view given = authorization == nullptr ? "" : authorization;
    if (!absl::StartsWith(given, "Bearer ") || !SameSecret(given.substr(7), options_.bearer_token)) {
      return refuse(401, "a valid bearer token is required");
    }
  }
  if (std::string(info->request_method) != "POST") return Reply(conn, metrics_, 405, "POST only");
  if (info->content_length > static_cast<long long>(options_.max_body_bytes)) {
    return refuse(
        413, absl::StrCat("body of ", info->content_length, " bytes is over the limit of ", options_.max_body_bytes));
  }
  std::string body;
  // Read straight into the body (civetweb's worker stacks are small), in
  // one piece when the length is known.
  constexpr size_t kChunk = 256 * 1024;
  const size_t expected = info->content_length > 0 ? static_cast<size_t>(info->content_length) : 0;
  const absl::Time deadline = clock_->Now() + options_.read_timeout;
  // Past the deadline the socket's reading side is shut down under a read
  // in progress; the 408 can still be written.
  struct Armed {
    SocketDeadlines& deadlines;
    int64_t id;
    ~Armed() { deadlines.Disarm(id); }
  } armed{deadlines_, deadlines_.Arm(connection, deadline)};
  for (;;) {
    if (clock_->Now() > deadline) return refuse(408, "body not read within the read deadline");
    const size_t have = body.size();
    const size_t want = have < expected ? expected - have : kChunk;
    body.resize(have + want);
    const int n = mg_read(conn, &body[have], want);
    body.resize(have + static_cast<size_t>(std::max(n, 0)));
    if (n <= 0) break;
    if (body.size() > options_.max_body_bytes) {
      return refuse(413, absl::StrCat("chunked body over the limit of ", options_.max_body_bytes, " bytes"));
    }
    if (expected > 0 && body.size() == expected) break;
  }
  if (clock_->Now() > deadline) return refuse(408, "body not read within the read deadline");
  if (info->content_length > 0 && body.size() != static_cast<size_t>(info->content_length)) {
    LogRejected("body shorter than its Content-Length");
    return Reply(conn, metrics_, 400, "body shorter than its Content-Length");
  }
  auto decoded = DecodeRemoteWrite(body, *normaliser_, options_.max_decoded_bytes, decode_budget_.get());
  if (!decoded.ok()) {
    const absl::StatusCode code = decoded.status().code();
    // The budget taken by others is backpressure: retried, like a 503 below.
    if (code == absl::StatusCode::kUnavailable) {
      metrics_->Backpressure().Increment();
      return Reply(conn, metrics_, 503, std::string(decoded.status().message()));
    }
    LogRejected(decoded.status().ToString());
    const int status = code == absl::StatusCode::kResourceExhausted ? 413 : 400;
    return Reply(conn, metrics_, status, std::string(decoded.status().message()));
  }
  // Refused before the log: a sample far ahead would close its device's
  // minutes past every real sample to come.
  decoded->samples_usable -= DropOutsideWindow(options_.window, clock_->Now(), &decoded->series, &decoded->drops);
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

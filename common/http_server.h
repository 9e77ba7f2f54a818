#pragma once
// The one HTTP/1.1 server of fleetcap: fleetcap-api's gateway, the
// remote_write receiver and every daemon's /metrics and probes run on it.
//
// Connections are read by libmicrohttpd's epoll event loop, so a client that
// is idle or sends a byte now and then costs a file descriptor and a small
// buffer, never a thread. A request reaches code of ours only once its
// headers are complete, and then only on a thread of the HandlerPool (each
// with the stack common/handler_stack.h promises); the event loop never
// waits for a handler.
//
// What the server owns, so that no listener has to get it right again:
//   - TLS (GnuTLS, from the PEM texts in memory: the key is never written
//     anywhere), TLS 1.2 or later, and client certificates verified against
//     a CA when one is given (a connection without one is closed before its
//     request reaches any code of ours);
//   - a connection cap, overall and per client address;
//   - time: a connection silent for read_timeout is closed, and a request's
//     body must have arrived read_timeout after the request was admitted (408);
//   - size: headers within a fixed buffer, the body within max_body_bytes
//     (413, from its Content-Length before any of it is read);
//   - admission: `admit` sees the request line and headers before any of the
//     body is read, and a request it answers has its body never read and its
//     connection closed after the answer;
//   - a lingering close (common/lingering_close.h) of every connection
//     answered before its body was read, so that a client still sending
//     reads its answer instead of a reset.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "common/handler_pool.h"
#include "common/lingering_close.h"
#include "common/tls_files.h"

struct MHD_Daemon;

namespace fleetcap {

struct HttpServerOptions {
  std::string listen;                         // HOST:PORT; port 0 picks a free one
  std::string listen_flag = "--http-listen";  // names the flag in errors
  TlsFiles tls;                               // HTTPS when enabled
  std::string tls_flag_prefix = "--tls";      // "--tls" names "--tls-cert" etc. in errors
  // Longest silence on a connection, and longest from a request's admission
  // to the end of its body (a wait for a handler thread is not the client's).
  absl::Duration read_timeout = absl::Seconds(10);
  size_t max_body_bytes = 0;
  int handler_threads = 8;  // requests handled at once; others wait their turn
  int event_loops = 1;      // threads reading and writing connections
  int max_connections = 16384;
  int max_connections_per_address = 0;  // 0: no cap per client address
  // Whether a connection may carry another request after an answer; when
  // not, every answer says "Connection: close".
  bool keep_alive = false;
  std::string log_name = "http";  // the spdlog logger of the server's own complaints
};

struct HttpServerRequest {
  std::string method;
  std::string target;  // as sent: the path and query, undecoded
  std::string path;    // `target` before any '?', undecoded
  std::string query;   // `target` after the first '?', undecoded
  std::vector<std::pair<std::string, std::string>> headers;
  long long content_length = -1;  // -1: none given (no body, or chunked)
  std::string body;               // empty until read
  // Whatever `admit` learnt about the request (a caller's scope, say), for `handle`.
  std::shared_ptr<void> admitted;

  // The first header called `name` (any case), "" when absent.
  std::string Header(const std::string& name) const;
};

struct HttpServerResponse {
  int status = 200;
  std::string content_type = "text/plain";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type and Content-Length
  bool close = false;                                        // close the connection after this answer
};

class HttpServer {
 public:
  struct Handlers {
    // From the request line and headers alone (no body read yet): an answer,
    // or nullopt to read the body and call `handle`. Null: read every body.
    std::function<std::optional<HttpServerResponse>(HttpServerRequest&)> admit;
    // The request with its body.
    std::function<HttpServerResponse(const HttpServerRequest&)> handle;
    // The answer to a body the server refused: `problem` is ResourceExhausted
    // (over max_body_bytes: 413) or DeadlineExceeded (late: 408), with a
    // message saying why. The status is set by the server. Null: the message as text.
    std::function<HttpServerResponse(const HttpServerRequest&, const absl::Status& problem)> refuse_body;
  };

  // Listens and serves. `clock` must outlive the server. The handlers run on
  // the server's handler threads, several at once.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(const HttpServerOptions& options, Handlers handlers,
                                                           const Clock* clock);
  // Stops listening; lets the handlers running finish; closes every connection.
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }

 private:
  friend struct HttpServerEvents;  // libmicrohttpd's callbacks (http_server.cc)
  HttpServer(const HttpServerOptions& options, Handlers handlers, const Clock* clock)
      : options_(options), handlers_(std::move(handlers)), clock_(clock), lingering_(clock, kLinger, kMaxLingering) {}

  // How long a connection answered before its body was read is drained, and
  // how many are at once (each is a descriptor, no thread).
  static constexpr absl::Duration kLinger = absl::Seconds(5);
  static constexpr int kMaxLingering = 1024;

  HttpServerResponse BodyRefusal(const HttpServerRequest& request, int status, const std::string& message) const;
  // Why a body is late, with what had arrived.
  std::string LateBody(const HttpServerRequest& request) const;

  HttpServerOptions options_;
  Handlers handlers_;
  const Clock* clock_;
  std::string cert_pem_, key_pem_, client_ca_pem_;  // live as long as the daemon that reads them
  HandlerPool pool_;
  std::atomic<int> complaints_logged_{0};
  LingeringClose lingering_;  // outlives the daemon, which hands it connections
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;
};

}  // namespace fleetcap

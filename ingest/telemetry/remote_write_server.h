#pragma once
// The remote_write 1.0 receiver: POST /api/v1/write, over HTTP or HTTPS
// (optionally with client certificates, checked in the TLS handshake before
// any request is read). Answers
//   204  once the request is durable in the sample log (push_pipeline.h);
//   400  for a body that is not snappy + WriteRequest (never retried);
//   401  without the bearer token, when one is required (from the headers,
//        before any of the body is read);
//   408  for a body not in within the read deadline of its request line (the
//        connection is closed);
//   413  for a body over the size limit (never retried): a Content-Length
//        over it before anything is read, a chunked body once it passes it,
//        or a body that would decompress past the limit or the whole budget;
//   503  when aggregation or the store is behind (backpressure), the log
//        cannot be written, or requests in flight hold the decompression
//        budget: retried, nothing was acknowledged. Not 429:
//        Prometheus drops a batch refused so unless retry_on_http_429 is set.

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "common/http_server.h"
#include "common/tls_files.h"
#include "ingest/telemetry/decode_budget.h"
#include "ingest/telemetry/normaliser.h"
#include "ingest/telemetry/push_pipeline.h"
#include "ingest/telemetry/sample_time_window.h"
#include "ingest/telemetry/telemetry_metrics.h"

namespace fleetcap::telemetry {

struct RemoteWriteOptions {
  std::string listen = "127.0.0.1:9201";
  size_t max_body_bytes = 32 << 20;      // compressed
  size_t max_decoded_bytes = 256 << 20;  // after snappy
  // Bytes all requests being decoded at once may decompress to (a global
  // budget, decode_budget.h): without it each handler thread could be made to
  // hold max_decoded_bytes.
  size_t decode_budget_bytes = 256 << 20;
  SampleTimeWindow window;  // samples outside are dropped at the door
  // Requests decoded and logged at once. Connections (Prometheus keeps one
  // alive per shard) hold no thread, so this need not follow the shards.
  int threads = 8;
  // Longest a connection may stay silent, and longest from a request line to
  // the end of its body.
  absl::Duration read_timeout = absl::Seconds(60);
  // When not empty, every request must carry "Authorization: Bearer TOKEN".
  std::string bearer_token;
  // When enabled, HTTPS; with a client CA, every connection must present a
  // certificate signed by it (refused in the TLS handshake otherwise).
  TlsFiles tls;
  // Without authentication (a bearer token or verified client certificates)
  // the receiver listens on loopback only, unless the network is declared
  // trusted. TLS without client certificates encrypts but does not
  // authenticate.
  bool trusted_network = false;
};

// Whether `listen` (HOST:PORT) names a loopback address only.
bool IsLoopbackListen(const std::string& listen);

class RemoteWriteServer {
 public:
  // `normaliser`, `pipeline`, `metrics` and `clock` must outlive the server.
  static absl::StatusOr<std::unique_ptr<RemoteWriteServer>> Start(const RemoteWriteOptions& options,
                                                                  const Normaliser* normaliser, PushPipeline* pipeline,
                                                                  TelemetryMetrics* metrics, const Clock* clock);
  ~RemoteWriteServer();  // stops accepting, finishes requests in flight

  int port() const { return port_; }

 private:
  explicit RemoteWriteServer(const Clock* clock) : clock_(clock) {}
  // From the headers: the bearer token and the method.
  std::optional<HttpServerResponse> Admit(const HttpServerRequest& request) const;
  HttpServerResponse Serve(const HttpServerRequest& request);
  // Counts the answer and, for a refusal, says why in the log.
  HttpServerResponse Reply(int status, const std::string& message) const;

  RemoteWriteOptions options_;
  const Normaliser* normaliser_ = nullptr;
  PushPipeline* pipeline_ = nullptr;
  TelemetryMetrics* metrics_ = nullptr;
  std::unique_ptr<DecodeBudget> decode_budget_;
  const Clock* clock_;                  // read deadlines and the sample time window's now
  std::unique_ptr<HttpServer> server_;  // last: stopped before what its handlers use
  int port_ = 0;
};

}  // namespace fleetcap::telemetry

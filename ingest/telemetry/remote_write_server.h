#pragma once
// The remote_write 1.0 receiver: POST /api/v1/write. Answers
//   204  once every usable sample of the request is durable in the store;
//   400  for a body that is not snappy + WriteRequest (never retried);
//   413  for a body over the size limit (never retried);
//   429  when the write queue is full (retried: backpressure);
//   503  when the store failed (retried: nothing of the request was kept).

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ingest/telemetry/normaliser.h"
#include "ingest/telemetry/telemetry_metrics.h"
#include "ingest/telemetry/write_queue.h"

struct mg_context;
struct mg_connection;

namespace fleetcap::telemetry {

struct RemoteWriteOptions {
  std::string listen = "127.0.0.1:9201";
  size_t max_body_bytes = 32 << 20;      // compressed
  size_t max_decoded_bytes = 256 << 20;  // after snappy
  absl::Duration store_timeout = absl::Seconds(60);
  int threads = 16;
};

class RemoteWriteServer {
 public:
  // `normaliser`, `queue` and `metrics` must outlive the server.
  static absl::StatusOr<std::unique_ptr<RemoteWriteServer>> Start(const RemoteWriteOptions& options,
                                                                  const Normaliser* normaliser, WriteQueue* queue,
                                                                  TelemetryMetrics* metrics);
  ~RemoteWriteServer();  // stops accepting, finishes requests in flight

  int port() const { return port_; }

 private:
  RemoteWriteServer() = default;
  static int Handle(mg_connection* conn, void* self);
  int Serve(mg_connection* conn);

  RemoteWriteOptions options_;
  const Normaliser* normaliser_ = nullptr;
  WriteQueue* queue_ = nullptr;
  TelemetryMetrics* metrics_ = nullptr;
  mg_context* ctx_ = nullptr;
  int port_ = 0;
};

}  // namespace fleetcap::telemetry

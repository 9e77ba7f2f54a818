#pragma once
// A client of Prometheus' HTTP API, /api/v1/query_range only. Understands
// the response envelope: `bad_data` (and other 4xx) is a bug in the query,
// reported and not retried; `timeout`, `unavailable`, any 5xx and network
// errors are retried with exponential backoff; `warnings` are logged.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/normaliser.h"

namespace fleetcap::telemetry {

struct RangeSeries {
  Labels labels;              // as returned (no __name__ after *_over_time)
  std::vector<Point> points;  // evaluation time (ms) and value
};

struct PrometheusClientOptions {
  absl::Duration timeout = absl::Seconds(30);        // per HTTP call
  int attempts = 4;                                  // tries per query, retries included
  absl::Duration backoff = absl::Milliseconds(500);  // doubled after each failure
};

// What the pull path asks of Prometheus (a fake in unit tests).
class RangeQuerier {
 public:
  virtual ~RangeQuerier() = default;
  // query_range over [start, end] with `step`.
  virtual absl::StatusOr<std::vector<RangeSeries>> QueryRange(const std::string& query, absl::Time start,
                                                              absl::Time end, absl::Duration step) = 0;
};

class PrometheusClient : public RangeQuerier {
 public:
  // `base_url` like "http://127.0.0.1:9090"; the backoff sleeps on `clock`,
  // which must outlive the client.
  PrometheusClient(std::string base_url, PrometheusClientOptions options, const Clock* clock);

  // query_range over [start, end] with `step`. INVALID_ARGUMENT for bad_data
  // and other client errors; UNAVAILABLE once retries are spent.
  absl::StatusOr<std::vector<RangeSeries>> QueryRange(const std::string& query, absl::Time start, absl::Time end,
                                                      absl::Duration step) override;

  int64_t retries() const { return retries_; }

 private:
  std::string base_url_;
  PrometheusClientOptions options_;
  const Clock* clock_;
  int64_t retries_ = 0;
};

// Parses a query_range response body (exposed for unit tests). `http_status`
// decides retryability when the body is not an envelope.
struct ParsedResponse {
  absl::Status status;  // OK, or the error with its kind
  bool retryable = false;
  std::vector<RangeSeries> series;
  std::vector<std::string> warnings;
  int64_t skipped = 0;  // malformed points (or series) left out of `series`
};
ParsedResponse ParseQueryRangeResponse(long http_status, const std::string& body);

}  // namespace fleetcap::telemetry

#pragma once
// The HTTP/JSON API under /v1/: each route parses its query into the same
// request message the gRPC API takes, runs the same operation, and answers
// with the canonical proto3 JSON of the same response message. Errors are
// {"code": <gRPC code number>, "status": "<CODE_NAME>", "message": "..."} with
// the matching HTTP status.

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "services/api/api_metrics.h"
#include "services/api/fleet_summary.h"

struct mg_context;
struct mg_connection;

namespace fleetcap::api {

struct HttpResponse {
  int status = 200;
  std::string body;
};

class HttpGateway {
 public:
  // `listen` is HOST:PORT (port 0 picks one). The query and metrics must outlive the gateway.
  static absl::StatusOr<std::unique_ptr<HttpGateway>> Start(const std::string& listen,
                                                            const FleetSummaryQuery* fleet,
                                                            ApiMetrics* metrics);
  ~HttpGateway();
  HttpGateway(const HttpGateway&) = delete;
  HttpGateway& operator=(const HttpGateway&) = delete;

  int port() const { return port_; }

 private:
  using Query = std::map<std::string, std::string>;
  using Route = std::function<HttpResponse(const Query&)>;

  HttpGateway(const FleetSummaryQuery* fleet, ApiMetrics* metrics);
  static int Dispatch(mg_connection* conn, void* self);
  HttpResponse Handle(const std::string& method, const std::string& path, const std::string& query_string);
  HttpResponse FleetSummary(const Query& query) const;

  const FleetSummaryQuery* fleet_;
  ApiMetrics* metrics_;
  std::map<std::string, Route> routes_;
  mg_context* ctx_ = nullptr;
  int port_ = 0;
};

// Renders a Status as the JSON error body.
HttpResponse ErrorResponse(const absl::Status& status);

}  // namespace fleetcap::api

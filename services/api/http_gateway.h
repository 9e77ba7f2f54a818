#pragma once
// The HTTP server of fleetcap-api. Routes under /v1/ are added by the API's
// modules before Start(); each parses its query into the same request message
// the gRPC API takes, runs the same operation, and answers with the canonical
// proto3 JSON of the same response message (see http_json.h).

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "services/api/api_metrics.h"
#include "services/api/http_json.h"

struct mg_context;
struct mg_connection;

namespace fleetcap::api {

class HttpGateway {
 public:
  using Route = std::function<HttpResponse(const HttpQuery&)>;

  // `metrics` must outlive the gateway.
  explicit HttpGateway(ApiMetrics* metrics) : metrics_(metrics) {}
  ~HttpGateway();
  HttpGateway(const HttpGateway&) = delete;
  HttpGateway& operator=(const HttpGateway&) = delete;

  // Serves GET `path` with `route`. Only before Start().
  void AddGetRoute(const std::string& path, Route route);

  // Listens on `listen` (HOST:PORT; port 0 picks one) with the routes added so far.
  absl::Status Start(const std::string& listen);
  int port() const { return port_; }

  // What a request gets, without the network: used by Start()'s handler.
  HttpResponse Handle(const std::string& method, const std::string& path, const std::string& query_string) const;

 private:
  static int Dispatch(mg_connection* conn, void* self);

  ApiMetrics* metrics_;
  std::map<std::string, Route> routes_;
  mg_context* ctx_ = nullptr;
  int port_ = 0;
};

}  // namespace fleetcap::api

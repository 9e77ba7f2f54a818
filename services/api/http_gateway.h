#pragma once
// The HTTP server of fleetcap-api. Routes under /v1/ are added by the API's
// modules before Start(); each parses its query (and, for POST, its JSON
// body) into the same request message the gRPC API takes, runs the same
// operation, and answers with the canonical proto3 JSON of the same response
// message (see http_json.h).
//
// Every request is authenticated and authorised here, before any route runs:
// the bearer token from the Authorization header gives the caller's Scope,
// and the access table (access_table.h) says whether "METHOD /path" is open
// to it. A route only ever receives that Scope.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "services/api/api_metrics.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"

struct mg_context;
struct mg_connection;

namespace fleetcap::api {

// PEM files for HTTPS (and the CA that client certificates must chain to, when set).
struct TlsFiles {
  std::string cert;
  std::string key;
  std::string client_ca;
  bool enabled() const { return !cert.empty(); }
};

struct HttpRequest {
  std::string method;
  std::string path;
  std::string query_string;
  std::string authorization;  // the Authorization header, "" when absent
  std::string body;
};

class HttpGateway {
 public:
  using Route = std::function<HttpResponse(const HttpQuery&)>;
  using ScopedRoute = std::function<HttpResponse(const Scope&, const HttpQuery&, const std::string& body)>;

  // Largest request body accepted, in bytes.
  static constexpr size_t kMaxBodyBytes = 8 * 1024 * 1024;

  // `metrics` and `auth` must outlive the gateway.
  HttpGateway(ApiMetrics* metrics, const Authenticator* auth) : metrics_(metrics), auth_(auth) {}
  ~HttpGateway();
  HttpGateway(const HttpGateway&) = delete;
  HttpGateway& operator=(const HttpGateway&) = delete;

  // Serves GET `path` with `route` (which needs no scope: its access is whatever
  // the access table says for "GET path"). Only before Start().
  void AddGetRoute(const std::string& path, Route route);
  // Serves `method` `path` with `route`, which receives the caller's scope and
  // the request body. Only before Start().
  void AddRoute(const std::string& method, const std::string& path, ScopedRoute route);

  // Listens on `listen` (HOST:PORT; port 0 picks one) with the routes added so far.
  absl::Status Start(const std::string& listen, const TlsFiles& tls = {});
  int port() const { return port_; }

  // "METHOD /path" of every route added, to check them against the access table.
  std::vector<std::string> RouteKeys() const;

  // What a request gets, without the network: used by Start()'s handler.
  HttpResponse Handle(const HttpRequest& request) const;

 private:
  static int Dispatch(mg_connection* conn, void* self);

  ApiMetrics* metrics_;
  const Authenticator* auth_;
  std::map<std::string, std::map<std::string, ScopedRoute>> routes_;  // path -> method -> route
  mg_context* ctx_ = nullptr;
  int port_ = 0;
};

}  // namespace fleetcap::api

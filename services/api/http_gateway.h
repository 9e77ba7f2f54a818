#pragma once
// The HTTP server of fleetcap-api. Routes under /v1/ are added by the API's
// modules before Start(); each parses its query (and, for POST, its JSON
// body) into the same request message the gRPC API takes, runs the same
// operation, and answers with the canonical proto3 JSON of the same response
// message (see http_json.h).
//
// Every request is authenticated and authorised here, before any route runs
// and before a byte of its body is read: the bearer token from the
// Authorization header gives the caller's Scope, and the access table
// (access_table.h) says whether "METHOD /path" is open to it. A route only
// ever receives that Scope. A refused request's body is never read: the
// answer goes out and the connection is closed.
//
// Connections are read by an event loop and requests handled on a pool of
// threads (common/http_server.h): a slow or idle client holds a connection,
// never a thread, so thousands of them do not delay anyone else's answer.
// A body that has not arrived within HttpLimits::read_timeout of its request
// line is refused (408).

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "common/http_server.h"
#include "common/tls_files.h"
#include "services/api/api_metrics.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "services/api/request_admission.h"
#include "services/api/static_files.h"

namespace fleetcap::api {

struct HttpLimits {
  // Longest a connection may stay silent, and longest from a request line to
  // the end of its body.
  absl::Duration read_timeout = absl::Seconds(10);
  // Requests handled at once (each on its own thread); connections are not
  // bounded by it.
  int threads = 8;
  // Open connections, in all and from one client address (0: no cap per address).
  int max_connections = 16384;
  int max_connections_per_address = 1024;
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

  // `metrics`, `auth` and `admission` must outlive the gateway; `admission`
  // bounds the requests running at once (nullptr: no bound).
  HttpGateway(ApiMetrics* metrics, const Authenticator* auth, const Clock* clock, RequestAdmission* admission = nullptr)
      : metrics_(metrics), auth_(auth), clock_(clock), admission_(admission) {}
  ~HttpGateway();
  HttpGateway(const HttpGateway&) = delete;
  HttpGateway& operator=(const HttpGateway&) = delete;

  // Serves GET `path` with `route` (which needs no scope: its access is whatever
  // the access table says for "GET path"). Only before Start().
  void AddGetRoute(const std::string& path, Route route);
  // Serves `method` `path` with `route`, which receives the caller's scope and
  // the request body. A query parameter in `list_parameters` may be given
  // more than once; the route sees its values joined with commas. Only
  // before Start().
  void AddRoute(const std::string& method, const std::string& path, ScopedRoute route,
                std::set<std::string> list_parameters = {});

  // Serves `files` (not owned; nullptr: none) for every path outside /v1/,
  // without a token. Without files, "/" answers how to serve the dashboard.
  // Only before Start().
  void ServeStaticFiles(const StaticFiles* files) { static_files_ = files; }

  // Listens on `listen` (HOST:PORT; port 0 picks one) with the routes added so far.
  absl::Status Start(const std::string& listen, const TlsFiles& tls = {}, const HttpLimits& limits = {});
  int port() const { return port_; }

  // "METHOD /path" of every route added, to check them against the access table.
  std::vector<std::string> RouteKeys() const;

  // What the request line and headers alone decide: either the answer
  // (`refused`), or the caller's scope, the query and the route, leaving
  // only the body to read.
  struct Admission {
    std::optional<HttpResponse> refused;
    Scope scope;
    HttpQuery query;
    const ScopedRoute* route = nullptr;
    // The request's place in the admission bound, held until its answer is written.
    RequestAdmission::Ticket ticket;
  };
  // Authentication, routing, the access table, the query and admission; `request.body` is not looked at.
  Admission Admit(const HttpRequest& request) const;

  // What a request gets, without the network: Admit, then the route.
  HttpResponse Handle(const HttpRequest& request) const;

 private:
  // The answer to a request with its body (admitted or not).
  HttpServerResponse Serve(const HttpServerRequest& request) const;
  // Admit on the server's terms: the answer to a request refused from its headers, or nullopt.
  std::optional<HttpServerResponse> AdmitHeaders(HttpServerRequest& request) const;
  // The answer to a body that came too large or too late.
  HttpServerResponse RefuseBody(const HttpServerRequest& request, const absl::Status& problem) const;
  // The dashboard's files (or the hint at "/"), when `path` is one of theirs; else nullopt.
  std::optional<StaticResponse> ServeStatic(const std::string& method, const std::string& path,
                                            const std::string& raw_path) const;

  ApiMetrics* metrics_;
  const Authenticator* auth_;
  const Clock* clock_;  // request times and body deadlines
  RequestAdmission* admission_;
  std::map<std::string, std::map<std::string, ScopedRoute>> routes_;  // path -> method -> route
  std::map<std::string, std::set<std::string>> list_parameters_;      // "METHOD /path" -> repeatable parameters
  HttpLimits limits_;
  const StaticFiles* static_files_ = nullptr;  // --web-root
  std::unique_ptr<HttpServer> server_;         // last: stopped before what its handlers use
  int port_ = 0;
};

}  // namespace fleetcap::api

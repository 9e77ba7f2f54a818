#include "services/api/http_gateway.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "common/logging.h"
#include "services/api/access_table.h"
#include "services/api/edge_text.h"

namespace fleetcap::api {

void HttpGateway::AddGetRoute(const std::string& path, Route route) {
  routes_[path]["GET"] = [route = std::move(route)](const Scope&, const HttpQuery& query, const std::string&) {
    return route(query);
  };
}

void HttpGateway::AddRoute(const std::string& method, const std::string& path, ScopedRoute route,
                           std::set<std::string> list_parameters) {
  routes_[path][method] = std::move(route);
  if (!list_parameters.empty()) list_parameters_[absl::StrCat(method, " ", path)] = std::move(list_parameters);
}

absl::Status HttpGateway::Start(const std::string& listen, const TlsFiles& tls, const HttpLimits& limits) {
  limits_ = limits;
  HttpServerOptions options;
  options.listen = listen;
  options.tls = tls;
  options.read_timeout = limits.read_timeout;
  options.max_body_bytes = kMaxBodyBytes;
  options.handler_threads = limits.threads;
  options.max_connections = limits.max_connections;
  options.max_connections_per_address = limits.max_connections_per_address;
  // Every connection closes after its answer: a client that is done holds nothing.
  options.keep_alive = false;
  HttpServer::Handlers handlers;
  handlers.admit = [this](HttpServerRequest& request) { return AdmitHeaders(request); };
  handlers.handle = [this](const HttpServerRequest& request) { return Serve(request); };
  handlers.refuse_body = [this](const HttpServerRequest& request, const absl::Status& problem) {
    return RefuseBody(request, problem);
  };
  auto server = HttpServer::Start(options, std::move(handlers), clock_);
  if (!server.ok()) return server.status();
  server_ = std::move(*server);
  port_ = server_->port();
  return absl::OkStatus();
}

HttpGateway::~HttpGateway() = default;

namespace {

// Takes the body over: an answer may be tens of MB, and is held once.
HttpServerResponse GatewayAnswer(HttpResponse response) {
  HttpServerResponse answer;
  answer.status = response.status;
  answer.content_type = response.content_type;
  answer.body = std::move(response.body);
  answer.headers = {{"Cache-Control", "no-store"}};
  answer.headers.insert(answer.headers.end(), response.headers.begin(), response.headers.end());
  return answer;
}

HttpRequest GatewayRequest(const HttpServerRequest& request) {
  HttpRequest out;
  out.method = request.method;
  out.path = request.path;
  out.query_string = request.query;
  out.authorization = request.Header("Authorization");
  return out;
}

}  // namespace

std::optional<HttpServerResponse> HttpGateway::AdmitHeaders(HttpServerRequest& request) const {
  const absl::Duration start = clock_->Monotonic();
  if (auto file = ServeStatic(request.method, request.path, request.path); file) {
    HttpServerResponse answer;
    answer.status = file->status;
    answer.content_type = file->content_type;
    answer.body = std::move(file->body);
    answer.headers = {{"Cache-Control", file->cache_control}, {"X-Content-Type-Options", "nosniff"}};
    metrics_->Observe("http", "static", std::to_string(file->status),
                      absl::ToDoubleSeconds(clock_->Monotonic() - start));
    return answer;
  }
  // Only the body of an admitted request is read.
  auto admission = std::make_shared<Admission>(Admit(GatewayRequest(request)));
  if (admission->refused) {
    const bool known = routes_.count(request.path) > 0;
    metrics_->Observe("http", known ? request.path : "unknown", std::to_string(admission->refused->status),
                      absl::ToDoubleSeconds(clock_->Monotonic() - start));
    return GatewayAnswer(*admission->refused);
  }
  request.admitted = std::move(admission);
  return std::nullopt;
}

HttpServerResponse HttpGateway::Serve(const HttpServerRequest& request) const {
  const absl::Duration start = clock_->Monotonic();
  const auto* admission = static_cast<const Admission*>(request.admitted.get());
  HttpResponse response = (*admission->route)(admission->scope, admission->query, request.body);
  // Unknown paths share one label so scanners cannot blow up the metric's cardinality.
  const bool known = routes_.count(request.path) > 0;
  metrics_->Observe("http", known ? request.path : "unknown", std::to_string(response.status),
                    absl::ToDoubleSeconds(clock_->Monotonic() - start));
  return GatewayAnswer(std::move(response));
}

HttpServerResponse HttpGateway::RefuseBody(const HttpServerRequest& request, const absl::Status& problem) const {
  const absl::Status said = absl::IsDeadlineExceeded(problem)
                                ? absl::DeadlineExceededError(
                                      absl::StrCat(problem.message(), "; send it faster or raise --http-read-timeout"))
                                : problem;
  HttpServerResponse answer = GatewayAnswer(ErrorResponse(said));
  const bool known = routes_.count(request.path) > 0;
  metrics_->Observe("http", known ? request.path : "unknown", absl::IsDeadlineExceeded(problem) ? "408" : "413", 0);
  return answer;
}

std::optional<StaticResponse> HttpGateway::ServeStatic(const std::string& method, const std::string& path,
                                                       const std::string& raw_path) const {
  if (IsApiPath(path)) return std::nullopt;
  if (static_files_ != nullptr) return static_files_->Serve(method, raw_path);
  if (path == "/") return StaticFiles::NotServedHint();
  return std::nullopt;
}

std::vector<std::string> HttpGateway::RouteKeys() const {
  std::vector<std::string> keys;
  for (const auto& [path, methods] : routes_) {
    for (const auto& [method, unused] : methods) keys.push_back(absl::StrCat(method, " ", path));
  }
  return keys;
}

HttpGateway::Admission HttpGateway::Admit(const HttpRequest& request) const {
  auto refuse = [](const absl::Status& status, int http_status = 0) {
    Admission refused;
    refused.refused = ErrorResponse(status);
    if (http_status != 0) refused.refused->status = http_status;
    return refused;
  };
  // Authentication comes first, so without a token nothing is learnt, not even which paths exist.
  auto scope = auth_->Authenticate(request.authorization);
  if (!scope.ok()) return refuse(scope.status());
  auto route = routes_.find(request.path);
  if (route == routes_.end()) return refuse(absl::NotFoundError(absl::StrCat("no route ", request.path)));
  auto handler = route->second.find(request.method);
  if (handler == route->second.end()) {
    std::vector<std::string> allowed;
    for (const auto& [method, unused] : route->second) allowed.push_back(method);
    return refuse(absl::InvalidArgumentError(absl::StrCat(request.method, " ", request.path, ": only ",
                                                          absl::StrJoin(allowed, ", "), " is served here")),
                  405);
  }
  const std::string key = absl::StrCat(request.method, " ", request.path);
  if (auto status = Authenticator::Authorize(*scope, AccessFor(key), key); !status.ok()) return refuse(status);
  auto lists = list_parameters_.find(key);
  auto query =
      ParseHttpQuery(request.query_string, lists == list_parameters_.end() ? std::set<std::string>{} : lists->second);
  if (!query.ok()) return refuse(query.status());
  if (auto clean = CheckEdgeQuery(*query); !clean.ok()) return refuse(clean);
  Admission admission;
  if (admission_ != nullptr) {
    auto ticket = admission_->Admit(scope->token_id);
    if (!ticket.ok()) return refuse(ticket.status());
    admission.ticket = *std::move(ticket);
  }
  admission.scope = *std::move(scope);
  admission.query = *std::move(query);
  admission.route = &handler->second;
  return admission;
}

HttpResponse HttpGateway::Handle(const HttpRequest& request) const {
  Admission admission = Admit(request);
  if (admission.refused) return *admission.refused;
  return (*admission.route)(admission.scope, admission.query, request.body);
}

}  // namespace fleetcap::api

#include "services/api/http_gateway.h"

#include <civetweb.h>

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
  deadlines_ = std::make_unique<SocketDeadlines>(clock_);
  std::unique_ptr<CivetwebTls> civetweb_tls;
  std::string ports = listen;
  const std::string threads = std::to_string(limits.threads);
  // civetweb bounds the time from a connection's first byte to the end of its headers.
  const std::string read_timeout_ms = std::to_string(absl::ToInt64Milliseconds(limits.read_timeout));
  // decode_url no: the path reaches us as sent, so the dashboard's files
  // (static_files.h) decode it once and see a %00 or %2e%2e for what it is.
  std::vector<const char*> options = {"num_threads",           threads.c_str(), "request_timeout_ms",
                                      read_timeout_ms.c_str(), "decode_url",    "no"};
  if (tls.enabled()) {
    auto prepared = CivetwebTls::Prepare(tls, "--tls");
    if (absl::IsFailedPrecondition(prepared.status())) {
      return absl::FailedPreconditionError(
          absl::StrCat(prepared.status().message(),
                       "; give --http-listen \"\" to serve gRPC only (with TLS), or put HTTP behind a TLS proxy"));
    }
    if (!prepared.ok()) return prepared.status();
    civetweb_tls = std::move(*prepared);
    ports += "s";
    civetweb_tls->AppendOptions(&options);
  }
  options.insert(options.begin(), {"listening_ports", ports.c_str()});
  options.push_back(nullptr);
  mg_callbacks callbacks{};
  // civetweb's own complaints (TLS handshakes, sockets) go to our log; they never hold request headers.
  callbacks.log_message = [](const mg_connection*, const char* message) {
    Logger("http")->warn("{}", message);
    return 1;
  };
  ctx_ = mg_start(&callbacks, nullptr, options.data());
  if (ctx_ == nullptr) {
    return absl::UnavailableError(absl::StrCat("--http-listen: cannot listen on \"", listen, "\"",
                                               tls.enabled() ? " with TLS (check --tls-cert and --tls-key)" : ""));
  }
  mg_set_request_handler(ctx_, "/", &HttpGateway::Dispatch, this);
  mg_server_port server_ports[4];
  int n = mg_get_server_ports(ctx_, 4, server_ports);
  port_ = n > 0 ? server_ports[0].port : 0;
  return absl::OkStatus();
}

HttpGateway::~HttpGateway() {
  if (ctx_ != nullptr) mg_stop(ctx_);
}

int HttpGateway::Dispatch(mg_connection* conn, void* self) {
  const auto* gateway = static_cast<const HttpGateway*>(self);
  const mg_request_info* info = mg_get_request_info(conn);
  const absl::Duration start = gateway->clock_->Monotonic();
  HttpRequest request;
  request.method = info->request_method;
  request.path = info->local_uri != nullptr ? info->local_uri : "/";
  request.query_string = info->query_string != nullptr ? info->query_string : "";
  const char* authorization = mg_get_header(conn, "Authorization");
  request.authorization = authorization != nullptr ? authorization : "";
  // Every connection closes after its answer (see below).
  if (auto file =
          gateway->ServeStatic(request.method, request.path, info->request_uri != nullptr ? info->request_uri : "");
      file) {
    mg_disable_connection_keep_alive(conn);
    mg_printf(conn,
              "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nCache-Control: %s\r\n"
              "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
              file->status, mg_get_response_code_text(conn, file->status), file->content_type.c_str(),
              file->body.size(), file->cache_control.c_str());
    if (request.method != "HEAD") mg_write(conn, file->body.data(), file->body.size());
    gateway->metrics_->Observe("http", "static", std::to_string(file->status),
                               absl::ToDoubleSeconds(gateway->clock_->Monotonic() - start));
    return file->status;
  }
  HttpResponse response;
  // Every connection closes after its answer; telling civetweb so also stops it
  // from reading whatever body is left unread (however long it was going to be).
  mg_disable_connection_keep_alive(conn);
  // Only the body of an admitted request that takes one is read.
  Admission admission = gateway->Admit(request);
  if (admission.refused) {
    response = *admission.refused;
  } else if (auto body = request.method == "GET" ? std::string() : gateway->ReadBody(conn); !body.ok()) {
    response = ErrorResponse(body.status());
    if (absl::IsResourceExhausted(body.status())) response.status = 413;
    if (absl::IsDeadlineExceeded(body.status())) response.status = 408;
  } else {
    response = (*admission.route)(admission.scope, admission.query, *body);
  }
  std::string extra_headers;
  for (const auto& [name, value] : response.headers) absl::StrAppend(&extra_headers, name, ": ", value, "\r\n");
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
            "Cache-Control: no-store\r\n%sConnection: close\r\n\r\n",
            response.status, mg_get_response_code_text(conn, response.status), response.content_type.c_str(),
            response.body.size(), extra_headers.c_str());
  mg_write(conn, response.body.data(), response.body.size());
  // Unknown paths share one label so scanners cannot blow up the metric's cardinality.
  const bool known = gateway->routes_.count(request.path) > 0;
  gateway->metrics_->Observe("http", known ? request.path : "unknown", std::to_string(response.status),
                             absl::ToDoubleSeconds(gateway->clock_->Monotonic() - start));
  return response.status;
}

std::optional<StaticResponse> HttpGateway::ServeStatic(const std::string& method, const std::string& path,
                                                       const std::string& raw_path) const {
  if (IsApiPath(path)) return std::nullopt;
  if (static_files_ != nullptr) return static_files_->Serve(method, raw_path);
  if (path == "/") return StaticFiles::NotServedHint();
  return std::nullopt;
}

absl::StatusOr<std::string> HttpGateway::ReadBody(mg_connection* conn) const {
  const mg_request_info* info = mg_get_request_info(conn);
  const long long declared = info->content_length;  // -1: none, or chunked
  if (declared > static_cast<long long>(kMaxBodyBytes)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("request body: ", declared, " bytes, expected at most ", kMaxBodyBytes));
  }
  // The whole body has one deadline: civetweb's own timeout applies to each wait
  // for data, which a client sending a trickle never trips (common/socket_deadlines.h).
  const absl::Time deadline = clock_->Now() + limits_.read_timeout;
  const int64_t armed = deadlines_->Arm({info->server_port, info->remote_addr, info->remote_port}, deadline);
  std::string body;
  char buffer[16384];
  int n;
  while ((n = mg_read(conn, buffer, sizeof buffer)) > 0 && body.size() <= kMaxBodyBytes) {
    body.append(buffer, static_cast<size_t>(n));
  }
  const bool cut_off = deadlines_->Disarm(armed);
  if (body.size() > kMaxBodyBytes) {
    return absl::ResourceExhaustedError(absl::StrCat("request body: more than ", kMaxBodyBytes, " bytes"));
  }
  if (cut_off || (declared >= 0 && body.size() < static_cast<size_t>(declared))) {
    return absl::DeadlineExceededError(absl::StrCat(
        "request body: ", body.size(), " bytes arrived within ", absl::FormatDuration(limits_.read_timeout),
        declared >= 0 ? absl::StrCat(" of ", declared) : "", "; send it faster or raise --http-read-timeout"));
  }
  return body;
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
    if (!ticket.ok()) {
      Admission refused = refuse(ticket.status());
      const int64_t seconds = std::max<int64_t>(1, absl::ToInt64Seconds(admission_->limits().retry_after));
      refused.refused->headers.emplace_back("Retry-After", std::to_string(seconds));
      return refused;
    }
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

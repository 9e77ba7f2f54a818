#include "services/api/http_gateway.h"

#include <civetweb.h>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace fleetcap::api {

void HttpGateway::AddGetRoute(const std::string& path, Route route) { routes_[path] = std::move(route); }

absl::Status HttpGateway::Start(const std::string& listen) {
  const char* options[] = {"listening_ports", listen.c_str(), "num_threads", "8", nullptr};
  mg_callbacks callbacks{};
  ctx_ = mg_start(&callbacks, nullptr, options);
  if (ctx_ == nullptr) {
    return absl::UnavailableError(absl::StrCat("--http-listen: cannot listen on \"", listen, "\""));
  }
  mg_set_request_handler(ctx_, "/", &HttpGateway::Dispatch, this);
  mg_server_port ports[4];
  int n = mg_get_server_ports(ctx_, 4, ports);
  port_ = n > 0 ? ports[0].port : 0;
  return absl::OkStatus();
}

HttpGateway::~HttpGateway() {
  if (ctx_ != nullptr) mg_stop(ctx_);
}

int HttpGateway::Dispatch(mg_connection* conn, void* self) {
  const auto* gateway = static_cast<const HttpGateway*>(self);
  const mg_request_info* info = mg_get_request_info(conn);
  const absl::Time start = absl::Now();
  const std::string path = info->local_uri != nullptr ? info->local_uri : "/";
  HttpResponse response =
      gateway->Handle(info->request_method, path, info->query_string != nullptr ? info->query_string : "");
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
            response.status, mg_get_response_code_text(conn, response.status), response.body.size());
  mg_write(conn, response.body.data(), response.body.size());
  // Unknown paths share one label so scanners cannot blow up the metric's cardinality.
  const bool known = gateway->routes_.count(path) > 0;
  gateway->metrics_->Observe("http", known ? path : "unknown", std::to_string(response.status),
                             absl::ToDoubleSeconds(absl::Now() - start));
  return response.status;
}

HttpResponse HttpGateway::Handle(const std::string& method, const std::string& path,
                                 const std::string& query_string) const {
  auto route = routes_.find(path);
  if (route == routes_.end()) return ErrorResponse(absl::NotFoundError(absl::StrCat("no route ", path)));
  if (method != "GET") {
    HttpResponse response =
        ErrorResponse(absl::InvalidArgumentError(absl::StrCat(method, " ", path, ": only GET is served here")));
    response.status = 405;
    return response;
  }
  auto query = ParseHttpQuery(query_string);
  if (!query.ok()) return ErrorResponse(query.status());
  return route->second(*query);
}

}  // namespace fleetcap::api

#include "services/api/http_gateway.h"

#include <civetweb.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"
#include "services/api/status_mapping.h"

namespace fleetcap::api {
namespace {

// Decodes application/x-www-form-urlencoded text (%XX and '+').
absl::StatusOr<std::string> UrlDecode(absl::string_view in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') {
      out += ' ';
    } else if (in[i] == '%') {
      if (i + 2 >= in.size() || !isxdigit(static_cast<unsigned char>(in[i + 1])) ||
          !isxdigit(static_cast<unsigned char>(in[i + 2]))) {
        return absl::InvalidArgumentError(absl::StrCat("query: bad percent-escape in \"", in, "\""));
      }
      out += static_cast<char>(std::stoi(std::string(in.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += in[i];
    }
  }
  return out;
}

absl::StatusOr<std::map<std::string, std::string>> ParseQuery(absl::string_view query_string) {
  std::map<std::string, std::string> query;
  for (absl::string_view pair : absl::StrSplit(query_string, '&', absl::SkipEmpty())) {
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(pair, absl::MaxSplits('=', 1));
    auto key = UrlDecode(kv.first);
    if (!key.ok()) return key.status();
    auto value = UrlDecode(kv.second);
    if (!value.ok()) return value.status();
    if (!query.emplace(*key, *value).second) {
      return absl::InvalidArgumentError(absl::StrCat("query parameter ", *key, ": given more than once"));
    }
  }
  return query;
}

absl::Status OnlyKnownParameters(const std::map<std::string, std::string>& query,
                                 std::initializer_list<absl::string_view> known) {
  for (const auto& [key, value] : query) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("query parameter ", key, ": unknown; expected one of ", absl::StrJoin(known, ", ")));
    }
  }
  return absl::OkStatus();
}

HttpResponse JsonResponse(const google::protobuf::Message& message) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  HttpResponse response;
  auto status = google::protobuf::util::MessageToJsonString(message, &response.body, options);
  if (!status.ok()) {
    return ErrorResponse(absl::InternalError(absl::StrCat("encoding JSON: ", status.ToString())));
  }
  return response;
}

}  // namespace

HttpResponse ErrorResponse(const absl::Status& status) {
  nlohmann::json body = {{"code", static_cast<int>(status.code())},
                         {"status", absl::StatusCodeToString(status.code())},
                         {"message", std::string(status.message())}};
  return HttpResponse{ToHttpStatus(status.code()), body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
}

HttpGateway::HttpGateway(const FleetSummaryQuery* fleet, ApiMetrics* metrics)
    : fleet_(fleet), metrics_(metrics) {
  routes_["/v1/fleet/summary"] = [this](const Query& q) { return FleetSummary(q); };
}

absl::StatusOr<std::unique_ptr<HttpGateway>> HttpGateway::Start(const std::string& listen,
                                                                const FleetSummaryQuery* fleet,
                                                                ApiMetrics* metrics) {
  std::unique_ptr<HttpGateway> gateway(new HttpGateway(fleet, metrics));
  const char* options[] = {"listening_ports", listen.c_str(), "num_threads", "8", nullptr};
  mg_callbacks callbacks{};
  gateway->ctx_ = mg_start(&callbacks, nullptr, options);
  if (gateway->ctx_ == nullptr) {
    return absl::UnavailableError(absl::StrCat("--http-listen: cannot listen on \"", listen, "\""));
  }
  mg_set_request_handler(gateway->ctx_, "/", &HttpGateway::Dispatch, gateway.get());
  mg_server_port ports[4];
  int n = mg_get_server_ports(gateway->ctx_, 4, ports);
  gateway->port_ = n > 0 ? ports[0].port : 0;
  return gateway;
}

HttpGateway::~HttpGateway() {
  if (ctx_ != nullptr) mg_stop(ctx_);
}

int HttpGateway::Dispatch(mg_connection* conn, void* self) {
  const mg_request_info* info = mg_get_request_info(conn);
  const absl::Time start = absl::Now();
  std::string path = info->local_uri != nullptr ? info->local_uri : "/";
  HttpResponse response = static_cast<HttpGateway*>(self)->Handle(
      info->request_method, path, info->query_string != nullptr ? info->query_string : "");
  mg_printf(conn,
            "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
            "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
            response.status, mg_get_response_code_text(conn, response.status), response.body.size());
  mg_write(conn, response.body.data(), response.body.size());
  auto* gateway = static_cast<HttpGateway*>(self);
  bool known = gateway->routes_.count(path) > 0;
  gateway->metrics_->Observe("http", known ? path : "unknown", std::to_string(response.status),
                             absl::ToDoubleSeconds(absl::Now() - start));
  return response.status;
}

HttpResponse HttpGateway::Handle(const std::string& method, const std::string& path,
                                 const std::string& query_string) {
  auto route = routes_.find(path);
  if (route == routes_.end()) {
    return ErrorResponse(absl::NotFoundError(absl::StrCat("no route ", path)));
  }
  if (method != "GET") {
    HttpResponse response = ErrorResponse(
        absl::InvalidArgumentError(absl::StrCat(method, " ", path, ": only GET is served here")));
    response.status = 405;
    return response;
  }
  auto query = ParseQuery(query_string);
  if (!query.ok()) return ErrorResponse(query.status());
  return route->second(*query);
}

HttpResponse HttpGateway::FleetSummary(const Query& query) const {
  if (auto status = OnlyKnownParameters(query, {"cluster", "at"}); !status.ok()) {
    return ErrorResponse(status);
  }
  auto cluster = query.find("cluster");
  auto at = query.find("at");
  auto request = FleetSummaryRequestFromQuery(cluster == query.end() ? "" : cluster->second,
                                              at == query.end() ? nullptr : &at->second);
  if (!request.ok()) return ErrorResponse(request.status());
  auto summary = fleet_->Run(*request);
  if (!summary.ok()) return ErrorResponse(summary.status());
  return JsonResponse(*summary);
}

}  // namespace fleetcap::api

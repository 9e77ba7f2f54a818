#pragma once
// Plain HTTP(S) requests through libcurl, for tests of the JSON API and /metrics.

#include <string>

#include "absl/status/statusor.h"

namespace fleetcap::testing {

struct HttpResult {
  long status = 0;
  std::string body;
};

// Optional TLS material for https:// URLs.
struct HttpTls {
  std::string ca_file;    // trust this CA for the server certificate
  std::string cert_file;  // client certificate (with key_file), when the server asks for one
  std::string key_file;
};

// `token`, when not empty, is sent as "Authorization: Bearer <token>".
absl::StatusOr<HttpResult> HttpGet(const std::string& url, const std::string& token = "");

// Any method; `body` is sent as application/json when not empty.
absl::StatusOr<HttpResult> HttpRequest(const std::string& method, const std::string& url, const std::string& body,
                                       const std::string& token, const HttpTls& tls = {});

}  // namespace fleetcap::testing

#pragma once
// Plain HTTP(S) requests through libcurl: the one HTTP client of the tests
// (the JSON API, /metrics, remote_write bodies).

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace fleetcap::testing {

struct HttpResult {
  long status = 0;
  std::string body;
  long retry_after_seconds = -1;  // the Retry-After header's seconds; -1 when absent
};

// Optional TLS material for https:// URLs.
struct HttpTls {
  std::string ca_file;    // trust this CA for the server certificate
  std::string cert_file;  // client certificate (with key_file), when the server asks for one
  std::string key_file;
};

// `token`, when not empty, is sent as "Authorization: Bearer <token>".
absl::StatusOr<HttpResult> HttpGet(const std::string& url, const std::string& token = "");

// Any method; `body` is sent as application/json when not empty, unless
// `headers` (whole "Name: value" lines, sent as given) name another Content-Type.
// A server may answer early and close (an oversized body refused): a response
// that arrived counts, even if sending the rest of the body failed.
absl::StatusOr<HttpResult> HttpRequest(const std::string& method, const std::string& url, const std::string& body,
                                       const std::string& token, const HttpTls& tls = {},
                                       const std::vector<std::string>& headers = {});

}  // namespace fleetcap::testing

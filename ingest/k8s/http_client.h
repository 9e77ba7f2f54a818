#pragma once
// The narrow HTTP interface the Kubernetes client needs: a GET whose body
// arrives in pieces (a list page, or a watch stream that lasts minutes).
// The libcurl implementation verifies TLS against a CA (file or PEM),
// presents a client certificate, or skips verification when told to.
// An instance is used by one thread at a time; it keeps its connection alive
// between requests.

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace fleetcap::k8s {

struct TlsConfig {
  std::string ca_file;
  std::string ca_pem;
  std::string cert_file;
  std::string cert_pem;
  std::string key_file;
  std::string key_pem;
  bool insecure = false;  // skip server certificate verification
};

struct HttpGetRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  absl::Duration connect_timeout = absl::Seconds(10);
  absl::Duration idle_timeout = absl::ZeroDuration();   // fail if no byte arrives for this long
  absl::Duration total_timeout = absl::ZeroDuration();  // whole request; zero: none
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // Performs the GET, handing each piece of the body to `on_body` with the
  // response's status (returning false stops the transfer, which is then not
  // an error). Returns the HTTP
  // status; UNAVAILABLE (naming the URL) when no response could be had or
  // the transfer broke; CANCELLED when the cancel flag was raised.
  virtual absl::StatusOr<long> Get(const HttpGetRequest& request,
                                   const std::function<bool(long, absl::string_view)>& on_body) = 0;
};

// `cancel`, if given, aborts transfers in flight once it becomes true.
std::unique_ptr<HttpClient> NewCurlHttpClient(TlsConfig tls, const std::atomic<bool>* cancel);

}  // namespace fleetcap::k8s

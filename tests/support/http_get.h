#pragma once
// A plain HTTP GET through libcurl, for tests of the JSON API and /metrics.

#include <string>

#include "absl/status/statusor.h"

namespace fleetcap::testing {

struct HttpResult {
  long status = 0;
  std::string body;
};

absl::StatusOr<HttpResult> HttpGet(const std::string& url);

}  // namespace fleetcap::testing

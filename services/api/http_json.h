#pragma once
// The pieces every HTTP/JSON route shares: query parsing, the canonical
// proto3 JSON rendering, and the error body
// {"code": <gRPC code number>, "status": "<CODE_NAME>", "message": "..."}.

#include <initializer_list>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace fleetcap::api {

struct HttpResponse {
  int status = 200;
  std::string body;
};

using HttpQuery = std::map<std::string, std::string>;

// Decodes `a=1&b=x%20y`; a repeated key or a bad %-escape is INVALID_ARGUMENT.
absl::StatusOr<HttpQuery> ParseHttpQuery(absl::string_view query_string);

// INVALID_ARGUMENT naming the first parameter not in `known`.
absl::Status OnlyKnownParameters(const HttpQuery& query, std::initializer_list<absl::string_view> known);

// The value of `key`, or nullptr when absent.
const std::string* QueryValue(const HttpQuery& query, const std::string& key);

HttpResponse JsonResponse(const google::protobuf::Message& message);
HttpResponse ErrorResponse(const absl::Status& status);

}  // namespace fleetcap::api

#pragma once
// The pieces every HTTP/JSON route shares: query parsing, the canonical
// proto3 JSON rendering, and the error body
// {"code": <gRPC code number>, "status": "<CODE_NAME>", "message": "..."}.

#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"

namespace fleetcap::api {

struct HttpResponse {
  int status = 200;
  std::string body;
  // What the body is: JSON for every answer of the API, but for the
  // exports (CSV, YAML manifests).
  std::string content_type = "application/json";
  // Headers beyond those every answer has (Retry-After on a 429).
  std::vector<std::pair<std::string, std::string>> headers = {};
};

using HttpQuery = std::map<std::string, std::string>;

// Decodes `a=1&b=x%20y`; a bad %-escape is INVALID_ARGUMENT, and so is a
// repeated key unless it is one of `list_parameters`, whose values are
// joined with commas in the order given (`g=a&g=b,c` is `g=a,b,c`).
absl::StatusOr<HttpQuery> ParseHttpQuery(absl::string_view query_string,
                                         const std::set<std::string>& list_parameters = {});

// INVALID_ARGUMENT naming the first parameter not in `known`.
absl::Status OnlyKnownParameters(const HttpQuery& query, std::initializer_list<absl::string_view> known);

// The value of `key`, or nullptr when absent.
const std::string* QueryValue(const HttpQuery& query, const std::string& key);

// A POST body as `message`: the canonical proto3 JSON of it ("" is the empty
// message), every text field then checked as at the edge (edge_text.h). A
// body nested deeper than kMaxNestingDepth is refused before protobuf's parser
// reads it (common/json_nesting.h).
absl::Status ParseJsonBody(const std::string& body, google::protobuf::Message* message);

HttpResponse JsonResponse(const google::protobuf::Message& message);
HttpResponse ErrorResponse(const absl::Status& status);

}  // namespace fleetcap::api

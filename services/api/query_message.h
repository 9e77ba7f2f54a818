#pragma once
// One place where an HTTP query becomes a request message: each parameter is
// the field of the message with that name (the proto field name), converted
// from its descriptor's type, so a new query parameter is a new field in the
// request message and nothing else.
//
// Types: string; bool ("true"/"false", "1"/"0"); int32, int64, uint32 and
// uint64, checked against the field's range; double; enum by its value name
// in any case, without the enum's own name as prefix (`minute`, `hour` for
// Resolution.HOUR; `day` for CHARGEBACK_RESOLUTION_DAY); a
// google.protobuf.Timestamp as an RFC 3339 time within the API's range
// (request_time.h). A repeated field takes comma-separated values (and
// repeated keys, which ParseHttpQuery joins with commas). Every text value is
// checked as at the edge (edge_text.h). Any error is INVALID_ARGUMENT naming
// the parameter; a parameter that is no field is refused naming it and the
// ones the route takes.
//
// What is not parsing stays with the route: required parameters, defaults
// (an empty enum is left unset, an absent Timestamp is not set), windows and
// authorization.

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "services/api/http_json.h"

namespace fleetcap::api {

struct QueryMapping {
  // Parameters the route reads itself, that are no field of the message:
  // known, and left alone here.
  std::vector<std::string> explicit_parameters = {};
  // Fields the route sets itself, from an explicit parameter (the forecast's
  // horizon_hours from `horizon=72h`): no parameter of the query.
  std::vector<std::string> route_fields = {};
  // Fields the route needs: absent or empty is INVALID_ARGUMENT
  // "<name>: missing" ("; give an RFC 3339 time" for a Timestamp).
  std::vector<std::string> required = {};
};

// Sets on `message` the field each parameter of `query` names: first refuses
// an unknown parameter, then converts the fields in field order, so that of
// two bad parameters the same one is named each time.
absl::Status QueryToMessage(const HttpQuery& query, google::protobuf::Message* message,
                            const QueryMapping& mapping = {});

// `Request` from `query`, for the routes whose request is the query alone.
template <typename Request>
absl::StatusOr<Request> RequestFromQuery(const HttpQuery& query, const QueryMapping& mapping = {}) {
  Request request;
  if (absl::Status status = QueryToMessage(query, &request, mapping); !status.ok()) return status;
  return request;
}

// `Request` from a POST route's JSON body (http_json.h, ParseJsonBody): no
// query parameter is taken, and a body over `max_body_bytes` (when not 0:
// a route's own bound under the server's) is refused before it is parsed.
template <typename Request>
absl::StatusOr<Request> RequestFromBody(const HttpQuery& query, const std::string& body, size_t max_body_bytes = 0) {
  if (absl::Status status = OnlyKnownParameters(query, {}); !status.ok()) return status;
  if (max_body_bytes > 0 && body.size() > max_body_bytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("request body: ", body.size(), " bytes, expected at most ", max_body_bytes));
  }
  Request request;
  if (absl::Status status = ParseJsonBody(body, &request); !status.ok()) return status;
  return request;
}

// The answer of a route: the result's JSON, or its error.
template <typename Result>
HttpResponse Reply(const absl::StatusOr<Result>& result) {
  return result.ok() ? JsonResponse(*result) : ErrorResponse(result.status());
}

// The parameters a query for `descriptor` may carry: its fields that a query
// can set, in field order.
std::vector<std::string> QueryParameters(const google::protobuf::Descriptor& descriptor);

// The repeated fields of `descriptor` that a query can set: the names to give
// ParseHttpQuery (HttpGateway::AddRoute) as list parameters.
std::set<std::string> QueryListParameters(const google::protobuf::Descriptor& descriptor);

}  // namespace fleetcap::api

#pragma once
// The one validation layer every text value from a client passes before
// anything else sees it: each HTTP query parameter (HttpGateway::Admit), each
// string field of a JSON body and of every gRPC request (GrpcGuard::Run).
//
// Every value must be valid UTF-8, without NUL or control characters, within
// a bounded length; a value whose field names a thing (a namespace, a pod, a
// team...) must match that thing's documented pattern (docs/security.md,
// "Text at the edge"). A refusal is INVALID_ARGUMENT naming the field and the
// rule, never echoing the bytes sent.
//
// Why here and not in each query: the store's driver passes text to
// PostgreSQL as C strings, so "\0" arrives as "" (which a filter reads as
// "none"), and an authorizer that saw the raw value would decide on a
// different string than the one the store runs. Checking once, at the edge,
// means authorization and the store only ever see the same, clean value.

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/message.h"
#include "services/api/http_json.h"

namespace fleetcap::api {

// `value` as the field `field` (a query parameter or proto field name).
// Empty is accepted: for a filter it means the same as absent.
absl::Status CheckEdgeText(absl::string_view field, absl::string_view value);

// Every parameter of `query`, names and values.
absl::Status CheckEdgeQuery(const HttpQuery& query);

// Every string field of `message`, in nested messages and repeated fields too.
absl::Status CheckEdgeMessage(const google::protobuf::Message& message);

}  // namespace fleetcap::api

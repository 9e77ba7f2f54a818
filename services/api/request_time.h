#pragma once
// Times that requests carry, checked where they enter the API. The API's
// range is google.protobuf.Timestamp's, 0001-01-01 to 9999-12-31 (inside
// PostgreSQL's, and what proto3 JSON can print): a time outside it, or
// malformed nanos, is INVALID_ARGUMENT naming the field on every transport,
// never a failure deeper down (a PostgreSQL error, an unprintable response)
// that would surface as a 500.

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"

namespace fleetcap::api {

// INVALID_ARGUMENT naming `field` (`field.seconds`, `field.nanos`) unless `t` is in range.
absl::Status CheckRequestTime(absl::string_view field, const google::protobuf::Timestamp& t);

// An RFC 3339 query parameter within the API's range, as a Timestamp.
absl::StatusOr<google::protobuf::Timestamp> ParseRequestTime(absl::string_view field, absl::string_view text);

}  // namespace fleetcap::api

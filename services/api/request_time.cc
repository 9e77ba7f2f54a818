#include "services/api/request_time.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/time_util.h"
#include "proto_time.h"

namespace fleetcap::api {
namespace {

// The range of google.protobuf.Timestamp: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
constexpr int64_t kMinSeconds = -62135596800;
constexpr int64_t kMaxSeconds = 253402300799;

}  // namespace

absl::Status CheckRequestTime(absl::string_view field, const google::protobuf::Timestamp& t) {
  if (t.seconds() < kMinSeconds || t.seconds() > kMaxSeconds) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".seconds: ", t.seconds(), " is outside 0001-01-01..9999-12-31"));
  }
  if (t.nanos() < 0 || t.nanos() > 999999999) {
    return absl::InvalidArgumentError(absl::StrCat(field, ".nanos: ", t.nanos(), " is outside 0..999999999"));
  }
  return absl::OkStatus();
}

absl::StatusOr<google::protobuf::Timestamp> ParseRequestTime(absl::string_view field, absl::string_view text) {
  FLEETCAP_ASSIGN_OR_RETURN(auto t, ParseRfc3339(field, text));
  if (t < absl::FromUnixSeconds(kMinSeconds) || t > absl::FromUnixSeconds(kMaxSeconds + 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": \"", text.substr(0, 64), "\" is outside 0001-01-01..9999-12-31"));
  }
  return ToProtoTimestamp(t);
}

}  // namespace fleetcap::api

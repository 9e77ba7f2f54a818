#pragma once
// google.protobuf.Timestamp <-> absl::Time, for every user of the API messages.

#include "absl/time/time.h"
#include "google/protobuf/timestamp.pb.h"

namespace fleetcap {

inline google::protobuf::Timestamp ToProtoTimestamp(absl::Time t) {
  // ToUnixSeconds rounds toward the past, so nanos are never negative.
  const int64_t seconds = absl::ToUnixSeconds(t);
  google::protobuf::Timestamp out;
  out.set_seconds(seconds);
  out.set_nanos(static_cast<int32_t>(absl::ToInt64Nanoseconds(t - absl::FromUnixSeconds(seconds))));
  return out;
}

inline absl::Time FromProtoTimestamp(const google::protobuf::Timestamp& t) {
  return absl::FromUnixSeconds(t.seconds()) + absl::Nanoseconds(t.nanos());
}

}  // namespace fleetcap

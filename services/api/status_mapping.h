#pragma once
// One mapping from absl::Status to what each transport says: a gRPC status,
// or an HTTP status with a JSON error body.

#include <optional>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "grpcpp/support/status.h"

namespace fleetcap::api {

// What a client is told of `status`: the status itself, except that a
// failure of the server (INTERNAL, UNKNOWN, DATA_LOSS) keeps its text (which
// may quote the database or the code) for the log, and the client gets only a
// reference to that log line.
absl::Status ForClient(const absl::Status& status);

// ForClient(status) as a gRPC status.
grpc::Status ToGrpcStatus(const absl::Status& status);

// `status` telling the client when to try again: an HTTP answer carries it
// as Retry-After (whole seconds, at least one), a gRPC one as the
// grpc-retry-pushback-ms trailer gRPC's retry policy reads.
absl::Status WithRetryAfter(absl::Status status, absl::Duration wait);
// The wait WithRetryAfter put on `status`, or nullopt.
std::optional<absl::Duration> RetryAfter(const absl::Status& status);

// 200 for OK; 400, 401, 403, 404, 409, 412, 429, 500, 503, 504 by code.
int ToHttpStatus(absl::StatusCode code);

}  // namespace fleetcap::api

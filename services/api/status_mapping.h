#pragma once
// One mapping from absl::Status to what each transport says: a gRPC status,
// or an HTTP status with a JSON error body.

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace fleetcap::api {

grpc::Status ToGrpcStatus(const absl::Status& status);

// 200 for OK; 400, 401, 403, 404, 409, 412, 429, 500, 503, 504 by code.
int ToHttpStatus(absl::StatusCode code);

}  // namespace fleetcap::api

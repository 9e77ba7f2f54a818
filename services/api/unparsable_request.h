#pragma once
// gRPC answers a request it cannot parse with INTERNAL before any fleetcap
// code sees it: a string field that is not valid UTF-8 (proto3 refuses it
// while parsing), or bytes that are not the method's request at all. That is
// the client's input, so it must be INVALID_ARGUMENT like every other refusal
// at the edge (edge_text.h), not a server error.
//
// The interceptor tells the two apart by their words: every INTERNAL that
// fleetcap's own handlers send has passed through ForClient
// (status_mapping.h) and carries a log reference, while gRPC's parse failure
// carries protobuf's InitializationErrorString (empty for proto3 messages) or
// "No payload".

#include <memory>

#include "grpcpp/support/server_interceptor.h"

namespace fleetcap::api {

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> UnparsableRequestInterceptors();

}  // namespace fleetcap::api

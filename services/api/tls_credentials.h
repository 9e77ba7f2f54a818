#pragma once
// gRPC server credentials from --tls-cert/--tls-key (and --tls-client-ca,
// which makes a verified client certificate mandatory); plaintext when no
// certificate is given.

#include <memory>

#include "absl/status/statusor.h"
#include "grpcpp/security/server_credentials.h"
#include "services/api/http_gateway.h"

namespace fleetcap::api {

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> GrpcServerCredentials(const TlsFiles& tls);

}  // namespace fleetcap::api

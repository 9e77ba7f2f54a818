#pragma once
// The control API: policy versions, tokens and the audit log
// (proto/fleetcap/v1/policy.proto, token.proto, audit.proto), over gRPC (PolicyService, TokenService, AuditService) and
// HTTP.

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterControl(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http);

}  // namespace fleetcap::api

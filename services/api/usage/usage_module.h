#pragma once
// The usage API (proto/fleetcap/v1/usage.proto), over gRPC (UsageService) and HTTP.

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterUsage(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http);

}  // namespace fleetcap::api

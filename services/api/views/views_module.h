#pragma once
// The saved views API (proto/fleetcap/v1/views.proto): each token's named
// dashboard views, over gRPC (ViewService) and HTTP.

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterViews(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http);

}  // namespace fleetcap::api

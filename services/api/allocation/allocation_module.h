#pragma once
// The recommendations API (proto/fleetcap/v1/allocation.proto): the latest
// run, its stream (WatchRecommendations) and its scheduler manifests, over gRPC
// (AllocationService) and HTTP. Stop() ends the streams.

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterAllocation(const ApiDependencies& deps, grpc::ServerBuilder& grpc,
                                              HttpGateway& http);

}  // namespace fleetcap::api

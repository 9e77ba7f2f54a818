#pragma once
// The fleet API (proto/fleetcap/v1/fleet.proto): the snapshot, capacity over time
// and the waiting pods, over gRPC (FleetService) and HTTP.

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterFleet(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http);

}  // namespace fleetcap::api

#pragma once
// The planning API (proto/fleetcap/v1/planning.proto): stored forecasts and
// what-if scenarios, over gRPC (PlanningService) and HTTP.

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterPlanning(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http);

}  // namespace fleetcap::api

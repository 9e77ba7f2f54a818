#pragma once
// The chargeback API (proto/fleetcap/v1/chargeback.proto): the lines and their
// explanation, over gRPC (ChargebackService) and HTTP.

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterChargeback(const ApiDependencies& deps, grpc::ServerBuilder& grpc,
                                              HttpGateway& http);

}  // namespace fleetcap::api

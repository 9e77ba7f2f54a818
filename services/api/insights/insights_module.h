#pragma once
// The insights API (proto/fleetcap/v1/insights.proto, docs/insights.md):
// waste, rightsizing, why spend changed and budgets, over gRPC
// (InsightsService) and HTTP (/v1/insights/...).

#include <memory>

#include "services/api/api_module.h"

namespace fleetcap::api {

std::unique_ptr<ApiModule> RegisterInsights(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http);

}  // namespace fleetcap::api

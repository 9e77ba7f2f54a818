#pragma once
// JSON routes of the control plane: /v1/policy, /v1/tokens, /v1/audit. Same
// operations and messages as the gRPC services; POST bodies are the request
// message in proto3 JSON.

#include "services/api/control/policy_operations.h"
#include "services/api/control/token_operations.h"
#include "services/api/http_gateway.h"

namespace fleetcap::api {

void AddControlRoutes(HttpGateway& gateway, const PolicyOperations* policy, const TokenOperations* tokens,
                      const AuditOperations* audit);

}  // namespace fleetcap::api

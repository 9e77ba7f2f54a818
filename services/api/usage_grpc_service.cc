#include "services/api/usage_grpc_service.h"

namespace fleetcap::api {

grpc::Status UsageGrpcService::GetUsage(grpc::ServerContext* context, const v1::GetUsageRequest* request,
                                        v1::UsageReport* response) {
  return guard_->Run(context, "/fleetcap.v1.UsageService/GetUsage", [&](const Scope& scope) {
    if (auto allowed = query_->Authorize(scope, *request); !allowed.ok()) return allowed;
    auto result = query_->Run(*request);
    if (!result.ok()) return result.status();
    *response = std::move(*result);
    return absl::OkStatus();
  });
}

}  // namespace fleetcap::api

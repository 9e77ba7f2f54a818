#include "services/api/usage/usage_grpc_service.h"

#include "common/status_macros.h"

namespace fleetcap::api {

grpc::Status UsageGrpcService::GetUsage(grpc::ServerContext* context, const v1::GetUsageRequest* request,
                                        v1::UsageReport* response) {
  return guard_->Run(context, "/fleetcap.v1.UsageService/GetUsage", *request, [&](const Scope& scope) {
    FLEETCAP_RETURN_IF_ERROR(query_->Authorize(scope, *request));
    FLEETCAP_ASSIGN_OR_RETURN(auto result, query_->Run(*request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

}  // namespace fleetcap::api

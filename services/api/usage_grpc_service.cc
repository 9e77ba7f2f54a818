#include "services/api/usage_grpc_service.h"

#include "absl/time/clock.h"
#include "services/api/status_mapping.h"

namespace fleetcap::api {

grpc::Status UsageGrpcService::GetUsage(grpc::ServerContext* /*context*/, const v1::GetUsageRequest* request,
                                        v1::UsageReport* response) {
  const absl::Time start = absl::Now();
  auto result = query_->Run(*request);
  absl::Status status = result.status();
  if (result.ok()) *response = std::move(*result);
  metrics_->Observe("grpc", "GetUsage", absl::StatusCodeToString(status.code()),
                    absl::ToDoubleSeconds(absl::Now() - start));
  return ToGrpcStatus(status);
}

}  // namespace fleetcap::api

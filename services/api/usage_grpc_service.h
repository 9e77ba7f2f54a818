#pragma once
// gRPC UsageService: a thin adapter over UsageQuery.

#include "fleetcap/v1/usage.grpc.pb.h"
#include "services/api/api_metrics.h"
#include "services/api/usage_query.h"

namespace fleetcap::api {

class UsageGrpcService final : public v1::UsageService::Service {
 public:
  UsageGrpcService(const UsageQuery* query, ApiMetrics* metrics) : query_(query), metrics_(metrics) {}

  grpc::Status GetUsage(grpc::ServerContext* context, const v1::GetUsageRequest* request,
                        v1::UsageReport* response) override;

 private:
  const UsageQuery* query_;
  ApiMetrics* metrics_;
};

}  // namespace fleetcap::api

#pragma once
// gRPC UsageService: a thin adapter over UsageQuery.

#include "fleetcap/v1/usage.grpc.pb.h"
#include "services/api/grpc_guard.h"
#include "services/api/usage/usage_query.h"

namespace fleetcap::api {

class UsageGrpcService final : public v1::UsageService::Service {
 public:
  UsageGrpcService(const UsageQuery* query, const GrpcGuard* guard) : query_(query), guard_(guard) {}

  grpc::Status GetUsage(grpc::ServerContext* context, const v1::GetUsageRequest* request,
                        v1::UsageReport* response) override;

 private:
  const UsageQuery* query_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api

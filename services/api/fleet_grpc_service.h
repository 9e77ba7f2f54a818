#pragma once
// gRPC FleetService: a thin adapter over FleetSummaryQuery, behind GrpcGuard.

#include "fleetcap/v1/fleet.grpc.pb.h"
#include "services/api/fleet_summary.h"
#include "services/api/grpc_guard.h"

namespace fleetcap::api {

class FleetGrpcService final : public v1::FleetService::Service {
 public:
  FleetGrpcService(const FleetSummaryQuery* query, const GrpcGuard* guard) : query_(query), guard_(guard) {}

  grpc::Status GetFleetSummary(grpc::ServerContext* context, const v1::GetFleetSummaryRequest* request,
                               v1::FleetSummary* response) override;

 private:
  const FleetSummaryQuery* query_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api

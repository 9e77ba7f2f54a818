#pragma once
// gRPC FleetService: a thin adapter over FleetSummaryQuery.

#include "fleetcap/v1/fleet.grpc.pb.h"
#include "services/api/api_metrics.h"
#include "services/api/fleet_summary.h"

namespace fleetcap::api {

class FleetGrpcService final : public v1::FleetService::Service {
 public:
  FleetGrpcService(const FleetSummaryQuery* query, ApiMetrics* metrics)
      : query_(query), metrics_(metrics) {}

  grpc::Status GetFleetSummary(grpc::ServerContext* context, const v1::GetFleetSummaryRequest* request,
                               v1::FleetSummary* response) override;

 private:
  const FleetSummaryQuery* query_;
  ApiMetrics* metrics_;
};

}  // namespace fleetcap::api

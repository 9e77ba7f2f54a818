#pragma once
// gRPC FleetService: a thin adapter over FleetSummaryQuery,
// CapacitySeriesQuery, AssetsQuery, DeviceHoldsQuery and PendingDemandQuery,
// behind GrpcGuard.

#include "fleetcap/v1/fleet.grpc.pb.h"
#include "services/api/fleet/assets_query.h"
#include "services/api/fleet/capacity_series.h"
#include "services/api/fleet/device_holds.h"
#include "services/api/fleet/fleet_summary.h"
#include "services/api/fleet/pending_demand.h"
#include "services/api/grpc_guard.h"

namespace fleetcap::api {

class FleetGrpcService final : public v1::FleetService::Service {
 public:
  // All must outlive the service.
  FleetGrpcService(const FleetSummaryQuery* query, const CapacitySeriesQuery* capacity, const AssetsQuery* assets,
                   const DeviceHoldsQuery* device_holds, const PendingDemandQuery* pending, const GrpcGuard* guard)
      : query_(query),
        capacity_(capacity),
        assets_(assets),
        device_holds_(device_holds),
        pending_(pending),
        guard_(guard) {}

  grpc::Status GetFleetSummary(grpc::ServerContext* context, const v1::GetFleetSummaryRequest* request,
                               v1::FleetSummary* response) override;
  grpc::Status GetCapacitySeries(grpc::ServerContext* context, const v1::GetCapacitySeriesRequest* request,
                                 v1::CapacitySeries* response) override;
  grpc::Status GetAssets(grpc::ServerContext* context, const v1::GetAssetsRequest* request,
                         v1::Assets* response) override;
  grpc::Status ListDeviceHolds(grpc::ServerContext* context, const v1::ListDeviceHoldsRequest* request,
                               v1::DeviceHolds* response) override;
  grpc::Status ListPendingDemand(grpc::ServerContext* context, const v1::ListPendingDemandRequest* request,
                                 v1::PendingDemand* response) override;

 private:
  const FleetSummaryQuery* query_;
  const CapacitySeriesQuery* capacity_;
  const AssetsQuery* assets_;
  const DeviceHoldsQuery* device_holds_;
  const PendingDemandQuery* pending_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api

#include "services/api/fleet/fleet_grpc_service.h"

#include "common/status_macros.h"

namespace fleetcap::api {

grpc::Status FleetGrpcService::GetFleetSummary(grpc::ServerContext* context, const v1::GetFleetSummaryRequest* request,
                                               v1::FleetSummary* response) {
  return guard_->Run(context, "/fleetcap.v1.FleetService/GetFleetSummary", *request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, query_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

grpc::Status FleetGrpcService::GetCapacitySeries(grpc::ServerContext* context,
                                                 const v1::GetCapacitySeriesRequest* request,
                                                 v1::CapacitySeries* response) {
  return guard_->Run(context, "/fleetcap.v1.FleetService/GetCapacitySeries", *request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, capacity_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

grpc::Status FleetGrpcService::GetAssets(grpc::ServerContext* context, const v1::GetAssetsRequest* request,
                                         v1::Assets* response) {
  return guard_->Run(context, "/fleetcap.v1.FleetService/GetAssets", *request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, assets_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

grpc::Status FleetGrpcService::ListDeviceHolds(grpc::ServerContext* context, const v1::ListDeviceHoldsRequest* request,
                                               v1::DeviceHolds* response) {
  return guard_->Run(context, "/fleetcap.v1.FleetService/ListDeviceHolds", *request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, device_holds_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

grpc::Status FleetGrpcService::ListPendingDemand(grpc::ServerContext* context,
                                                 const v1::ListPendingDemandRequest* request,
                                                 v1::PendingDemand* response) {
  return guard_->Run(context, "/fleetcap.v1.FleetService/ListPendingDemand", *request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, pending_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

}  // namespace fleetcap::api

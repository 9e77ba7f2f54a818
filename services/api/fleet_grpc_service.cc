#include "services/api/fleet_grpc_service.h"

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "services/api/status_mapping.h"

namespace fleetcap::api {

grpc::Status FleetGrpcService::GetFleetSummary(grpc::ServerContext* /*context*/,
                                               const v1::GetFleetSummaryRequest* request,
                                               v1::FleetSummary* response) {
  const absl::Time start = absl::Now();
  auto result = query_->Run(*request);
  absl::Status status = result.status();
  if (result.ok()) *response = std::move(*result);
  metrics_->Observe("grpc", "GetFleetSummary", absl::StatusCodeToString(status.code()),
                    absl::ToDoubleSeconds(absl::Now() - start));
  return ToGrpcStatus(status);
}

}  // namespace fleetcap::api

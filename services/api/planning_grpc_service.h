#pragma once
// gRPC PlanningService: a thin adapter over ForecastQuery, behind GrpcGuard.

#include "fleetcap/v1/planning.grpc.pb.h"
#include "services/api/forecast_query.h"
#include "services/api/grpc_guard.h"

namespace fleetcap::api {

class PlanningGrpcService final : public v1::PlanningService::Service {
 public:
  // Both must outlive the service.
  PlanningGrpcService(const ForecastQuery* forecasts, const GrpcGuard* guard) : forecasts_(forecasts), guard_(guard) {}

  grpc::Status GetForecast(grpc::ServerContext* context, const v1::GetForecastRequest* request,
                           v1::Forecast* response) override;

 private:
  const ForecastQuery* forecasts_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api

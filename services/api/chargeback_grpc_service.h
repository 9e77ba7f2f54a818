#pragma once
// gRPC ChargebackService: a thin adapter over ChargebackQuery.

#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "services/api/chargeback_query.h"
#include "services/api/grpc_guard.h"

namespace fleetcap::api {

class ChargebackGrpcService final : public v1::ChargebackService::Service {
 public:
  // Both must outlive the service.
  ChargebackGrpcService(const ChargebackQuery* query, const GrpcGuard* guard) : query_(query), guard_(guard) {}

  grpc::Status GetChargeback(grpc::ServerContext* context, const v1::GetChargebackRequest* request,
                             v1::ChargebackReport* response) override;

 private:
  const ChargebackQuery* query_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api

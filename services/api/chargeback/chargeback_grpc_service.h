#pragma once
// gRPC ChargebackService: a thin adapter over ChargebackQuery and
// ChargebackExplainQuery.

#include "fleetcap/v1/chargeback.grpc.pb.h"
#include "services/api/chargeback/chargeback_explain.h"
#include "services/api/chargeback/chargeback_query.h"
#include "services/api/grpc_guard.h"

namespace fleetcap::api {

class ChargebackGrpcService final : public v1::ChargebackService::Service {
 public:
  // All must outlive the service.
  ChargebackGrpcService(const ChargebackQuery* query, const ChargebackExplainQuery* explain, const GrpcGuard* guard)
      : query_(query), explain_(explain), guard_(guard) {}

  grpc::Status GetChargeback(grpc::ServerContext* context, const v1::GetChargebackRequest* request,
                             v1::ChargebackReport* response) override;
  grpc::Status ExplainChargeback(grpc::ServerContext* context, const v1::ExplainChargebackRequest* request,
                                 v1::ChargebackExplanation* response) override;

 private:
  const ChargebackQuery* query_;
  const ChargebackExplainQuery* explain_;
  const GrpcGuard* guard_;
};

}  // namespace fleetcap::api

#include "services/api/chargeback/chargeback_grpc_service.h"

#include "common/status_macros.h"
#include "services/api/chargeback/chargeback_explain_service.h"

namespace fleetcap::api {

grpc::Status ChargebackGrpcService::GetChargeback(grpc::ServerContext* context, const v1::GetChargebackRequest* request,
                                                  v1::ChargebackReport* response) {
  return guard_->Run(context, "/fleetcap.v1.ChargebackService/GetChargeback", *request, [&](const Scope& scope) {
    FLEETCAP_ASSIGN_OR_RETURN(auto result, query_->Run(scope, *request));
    *response = std::move(result);
    return absl::OkStatus();
  });
}

grpc::Status ChargebackGrpcService::ExplainChargeback(grpc::ServerContext* context,
                                                      const v1::ExplainChargebackRequest* request,
                                                      v1::ChargebackExplanation* response) {
  return ExplainChargebackCall(guard_, explain_, context, request, response);
}

}  // namespace fleetcap::api

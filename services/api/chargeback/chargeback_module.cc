#include "services/api/chargeback/chargeback_module.h"

#include "services/api/chargeback/chargeback_explain.h"
#include "services/api/chargeback/chargeback_explain_service.h"
#include "services/api/chargeback/chargeback_grpc_service.h"
#include "services/api/chargeback/chargeback_http_routes.h"
#include "services/api/chargeback/chargeback_query.h"
#include "store/pg_attribution_facts_repository.h"

namespace fleetcap::api {
namespace {

class ChargebackModule final : public ApiModule {
 public:
  explicit ChargebackModule(const ApiDependencies& deps)
      : attribution_facts_(deps.report_pool),
        query_(deps.chargeback, deps.active_policy, deps.heavy_reads),
        explain_(&attribution_facts_, deps.teams, deps.chargeback),
        service_(&query_, &explain_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddChargebackRoutes(http, &query_);
    AddChargebackExplainRoutes(http, &explain_);
  }

 private:
  store::PgAttributionFactsRepository attribution_facts_;
  ChargebackQuery query_;
  ChargebackExplainQuery explain_;
  ChargebackGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterChargeback(const ApiDependencies& deps, grpc::ServerBuilder& grpc,
                                              HttpGateway& http) {
  return BuildAndRegister<ChargebackModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

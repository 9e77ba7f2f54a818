#include "services/api/usage/usage_module.h"

#include "services/api/usage/usage_grpc_service.h"
#include "services/api/usage/usage_http_routes.h"
#include "services/api/usage/usage_query.h"
#include "store/pg_usage_repository.h"

namespace fleetcap::api {
namespace {

class UsageModule final : public ApiModule {
 public:
  explicit UsageModule(const ApiDependencies& deps)
      : usage_(deps.report_pool), query_(&usage_, deps.teams), service_(&query_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddUsageRoutes(http, &query_);
  }

 private:
  store::PgUsageRepository usage_;
  UsageQuery query_;
  UsageGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterUsage(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<UsageModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

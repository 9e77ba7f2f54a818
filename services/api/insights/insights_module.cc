#include "services/api/insights/insights_module.h"

#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

// gRPC InsightsService: a thin adapter over each insight's query, behind GrpcGuard.
class InsightsGrpcService final : public v1::InsightsService::Service {
 public:
  explicit InsightsGrpcService(const GrpcGuard* guard) : guard_(guard) {}

 private:
  const GrpcGuard* guard_;
};

void AddInsightsRoutes(HttpGateway&) {}

class InsightsModule final : public ApiModule {
 public:
  explicit InsightsModule(const ApiDependencies& deps) : service_(deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddInsightsRoutes(http);
  }

 private:
  InsightsGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterInsights(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<InsightsModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

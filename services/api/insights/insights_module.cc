#include "services/api/insights/insights_module.h"

#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/api/insights/rightsizing_query.h"
#include "services/api/query_message.h"
#include "store/pg_rightsizing_repository.h"

namespace fleetcap::api {
namespace {

// gRPC InsightsService: a thin adapter over each insight's query, behind GrpcGuard.
class InsightsGrpcService final : public v1::InsightsService::Service {
 public:
  InsightsGrpcService(const RightsizingQuery* rightsizing, const GrpcGuard* guard)
      : rightsizing_(rightsizing), guard_(guard) {}

  grpc::Status GetRightsizing(grpc::ServerContext* c, const v1::GetRightsizingRequest* q,
                              v1::RightsizingReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetRightsizing", *q,
                       [&](const Scope& s) { return Into(rightsizing_->Run(s, *q), r); });
  }

 private:
  const RightsizingQuery* rightsizing_;
  const GrpcGuard* guard_;
};

void AddInsightsRoutes(HttpGateway& http, const RightsizingQuery* rightsizing) {
  http.AddRoute("GET", "/v1/insights/rightsizing",
                [rightsizing](const Scope& scope, const HttpQuery& q, const std::string&) {
                  auto request = RightsizingRequestFromQuery(q);
                  if (!request.ok()) return ErrorResponse(request.status());
                  return Reply(rightsizing->Run(scope, *request));
                });
}

class InsightsModule final : public ApiModule {
 public:
  explicit InsightsModule(const ApiDependencies& deps)
      : recommendations_(deps.report_pool),
        rightsizing_(&recommendations_, deps.active_policy),
        service_(&rightsizing_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddInsightsRoutes(http, &rightsizing_);
  }

 private:
  store::PgRightsizingRepository recommendations_;
  RightsizingQuery rightsizing_;
  InsightsGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterInsights(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<InsightsModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

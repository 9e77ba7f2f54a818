#include "services/api/insights/insights_module.h"

#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/api/insights/waste_query.h"
#include "services/api/query_message.h"
#include "store/pg_insight_waste_repository.h"

namespace fleetcap::api {
namespace {

// gRPC InsightsService: a thin adapter over each insight's query, behind GrpcGuard.
class InsightsGrpcService final : public v1::InsightsService::Service {
 public:
  InsightsGrpcService(const WasteQuery* waste, const GrpcGuard* guard) : waste_(waste), guard_(guard) {}

  grpc::Status GetWaste(grpc::ServerContext* c, const v1::GetWasteRequest* q, v1::WasteReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetWaste", *q,
                       [&](const Scope& s) { return Into(waste_->Run(s, *q), r); });
  }

 private:
  const WasteQuery* waste_;
  const GrpcGuard* guard_;
};

void AddInsightsRoutes(HttpGateway& http, const WasteQuery* waste) {
  http.AddRoute("GET", "/v1/insights/waste", [waste](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = WasteRequestFromQuery(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(waste->Run(scope, *request));
  });
}

class InsightsModule final : public ApiModule {
 public:
  // The insights are read from the report pool, as the chargeback is.
  explicit InsightsModule(const ApiDependencies& deps)
      : waste_store_(deps.report_pool), waste_(&waste_store_, deps.active_policy), service_(&waste_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddInsightsRoutes(http, &waste_);
  }

 private:
  store::PgInsightWasteRepository waste_store_;
  WasteQuery waste_;
  InsightsGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterInsights(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<InsightsModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

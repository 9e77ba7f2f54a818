#include "services/api/insights/insights_module.h"

#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/api/insights/spend_change_query.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

// The insights' queries, one per method.
struct InsightsQueries {
  const SpendChangeQuery* spend_change;
};

// gRPC InsightsService: a thin adapter over each insight's query, behind GrpcGuard.
class InsightsGrpcService final : public v1::InsightsService::Service {
 public:
  InsightsGrpcService(InsightsQueries queries, const GrpcGuard* guard) : queries_(queries), guard_(guard) {}

  grpc::Status GetSpendChange(grpc::ServerContext* c, const v1::GetSpendChangeRequest* q,
                              v1::SpendChangeReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetSpendChange", *q,
                       [&](const Scope& s) { return Into(queries_.spend_change->Run(s, *q), r); });
  }

 private:
  InsightsQueries queries_;
  const GrpcGuard* guard_;
};

void AddInsightsRoutes(HttpGateway& http, InsightsQueries queries) {
  http.AddRoute("GET", "/v1/insights/changes", [queries](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = SpendChangeRequestFromQuery(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(queries.spend_change->Run(scope, *request));
  });
}

class InsightsModule final : public ApiModule {
 public:
  explicit InsightsModule(const ApiDependencies& deps)
      : spend_change_(deps.chargeback, deps.active_policy, deps.heavy_reads), service_(Queries(), deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddInsightsRoutes(http, Queries());
  }

 private:
  InsightsQueries Queries() const { return {&spend_change_}; }

  SpendChangeQuery spend_change_;
  InsightsGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterInsights(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<InsightsModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

#include "services/api/insights/insights_module.h"

#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/api/insights/budgets_query.h"
#include "services/api/query_message.h"

namespace fleetcap::api {
namespace {

// The queries of the insights, one per method.
struct InsightsQueries {
  const BudgetsQuery* budgets;
};

// gRPC InsightsService: a thin adapter over each insight's query, behind GrpcGuard.
class InsightsGrpcService final : public v1::InsightsService::Service {
 public:
  InsightsGrpcService(InsightsQueries queries, const GrpcGuard* guard) : queries_(queries), guard_(guard) {}

  grpc::Status GetBudgets(grpc::ServerContext* c, const v1::GetBudgetsRequest* q, v1::BudgetReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetBudgets", *q,
                       [&](const Scope& s) { return Into(queries_.budgets->Run(s, *q), r); });
  }

 private:
  InsightsQueries queries_;
  const GrpcGuard* guard_;
};

void AddInsightsRoutes(HttpGateway& http, InsightsQueries queries) {
  http.AddRoute("GET", "/v1/insights/budgets", [queries](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = RequestFromQuery<v1::GetBudgetsRequest>(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(queries.budgets->Run(scope, *request));
  });
}

class InsightsModule final : public ApiModule {
 public:
  explicit InsightsModule(const ApiDependencies& deps)
      : budgets_(deps.chargeback, deps.chargeback, deps.active_policy, deps.clock), service_(Queries(), deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddInsightsRoutes(http, Queries());
  }

 private:
  InsightsQueries Queries() const { return {&budgets_}; }

  BudgetsQuery budgets_;
  InsightsGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterInsights(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<InsightsModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

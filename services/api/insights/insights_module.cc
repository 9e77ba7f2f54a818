#include "services/api/insights/insights_module.h"

#include "fleetcap/v1/insights.grpc.pb.h"
#include "services/api/insights/budgets_query.h"
#include "services/api/insights/rightsizing_query.h"
#include "services/api/insights/spend_change_query.h"
#include "services/api/insights/waste_query.h"
#include "services/api/query_message.h"
#include "store/pg_insight_waste_repository.h"
#include "store/pg_rightsizing_repository.h"

namespace fleetcap::api {
namespace {

// The queries of the insights, one per method.
struct InsightsQueries {
  const WasteQuery* waste;
  const RightsizingQuery* rightsizing;
  const SpendChangeQuery* spend_change;
  const BudgetsQuery* budgets;
};

// gRPC InsightsService: a thin adapter over each insight's query, behind GrpcGuard.
class InsightsGrpcService final : public v1::InsightsService::Service {
 public:
  InsightsGrpcService(InsightsQueries queries, const GrpcGuard* guard) : queries_(queries), guard_(guard) {}

  grpc::Status GetWaste(grpc::ServerContext* c, const v1::GetWasteRequest* q, v1::WasteReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetWaste", *q,
                       [&](const Scope& s) { return Into(queries_.waste->Run(s, *q), r); });
  }
  grpc::Status GetRightsizing(grpc::ServerContext* c, const v1::GetRightsizingRequest* q,
                              v1::RightsizingReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetRightsizing", *q,
                       [&](const Scope& s) { return Into(queries_.rightsizing->Run(s, *q), r); });
  }
  grpc::Status GetSpendChange(grpc::ServerContext* c, const v1::GetSpendChangeRequest* q,
                              v1::SpendChangeReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetSpendChange", *q,
                       [&](const Scope& s) { return Into(queries_.spend_change->Run(s, *q), r); });
  }
  grpc::Status GetBudgets(grpc::ServerContext* c, const v1::GetBudgetsRequest* q, v1::BudgetReport* r) override {
    return guard_->Run(c, "/fleetcap.v1.InsightsService/GetBudgets", *q,
                       [&](const Scope& s) { return Into(queries_.budgets->Run(s, *q), r); });
  }

 private:
  InsightsQueries queries_;
  const GrpcGuard* guard_;
};

void AddInsightsRoutes(HttpGateway& http, InsightsQueries queries) {
  http.AddRoute("GET", "/v1/insights/waste", [queries](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = WasteRequestFromQuery(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(queries.waste->Run(scope, *request));
  });
  http.AddRoute("GET", "/v1/insights/rightsizing",
                [queries](const Scope& scope, const HttpQuery& q, const std::string&) {
                  auto request = RightsizingRequestFromQuery(q);
                  if (!request.ok()) return ErrorResponse(request.status());
                  return Reply(queries.rightsizing->Run(scope, *request));
                });
  http.AddRoute("GET", "/v1/insights/changes", [queries](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = SpendChangeRequestFromQuery(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(queries.spend_change->Run(scope, *request));
  });
  http.AddRoute("GET", "/v1/insights/budgets", [queries](const Scope& scope, const HttpQuery& q, const std::string&) {
    auto request = RequestFromQuery<v1::GetBudgetsRequest>(q);
    if (!request.ok()) return ErrorResponse(request.status());
    return Reply(queries.budgets->Run(scope, *request));
  });
}

// The insights are read from the report pool, as the chargeback is.
class InsightsModule final : public ApiModule {
 public:
  explicit InsightsModule(const ApiDependencies& deps)
      : waste_store_(deps.report_pool),
        recommendations_(deps.report_pool),
        waste_(&waste_store_, deps.active_policy),
        rightsizing_(&recommendations_, deps.active_policy),
        spend_change_(deps.chargeback, deps.active_policy, deps.heavy_reads),
        budgets_(deps.chargeback, deps.chargeback, deps.active_policy, deps.clock),
        service_(Queries(), deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddInsightsRoutes(http, Queries());
  }

 private:
  InsightsQueries Queries() const { return {&waste_, &rightsizing_, &spend_change_, &budgets_}; }

  store::PgInsightWasteRepository waste_store_;
  store::PgRightsizingRepository recommendations_;
  WasteQuery waste_;
  RightsizingQuery rightsizing_;
  SpendChangeQuery spend_change_;
  BudgetsQuery budgets_;
  InsightsGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterInsights(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<InsightsModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

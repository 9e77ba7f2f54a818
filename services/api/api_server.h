#pragma once
// fleetcap-api assembled: the repositories, the gRPC services (with health
// checking and reflection) and the HTTP/JSON gateway, over the pool and the
// metrics registry of the daemon that runs it (common/daemon.h).

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "common/pg_pool.h"
#include "grpcpp/server.h"
#include "optimizer/whatif/engine_forecaster.h"
#include "prometheus/registry.h"
#include "services/api/allocation_grpc_service.h"
#include "services/api/api_metrics.h"
#include "services/api/auth.h"
#include "services/api/capacity_series.h"
#include "services/api/chargeback_explain_service.h"
#include "services/api/chargeback_grpc_service.h"
#include "services/api/chargeback_query.h"
#include "services/api/control_grpc_services.h"
#include "services/api/fleet_grpc_service.h"
#include "services/api/fleet_summary.h"
#include "services/api/heavy_reads.h"
#include "services/api/http_gateway.h"
#include "services/api/pending_demand.h"
#include "services/api/planning_grpc_service.h"
#include "services/api/recommendation_manifests.h"
#include "services/api/scenario_operations.h"
#include "services/api/static_files.h"
#include "services/api/team_attribution.h"
#include "services/api/usage_grpc_service.h"
#include "services/api/usage_query.h"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_attribution_facts_repository.h"
#include "store/pg_capacity_repository.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_demand_history_repository.h"
#include "store/pg_forecast_repository.h"
#include "store/pg_live_inventory_repository.h"
#include "store/pg_scenario_repository.h"
#include "store/pg_team_facts_repository.h"
#include "store/pg_usage_repository.h"

namespace fleetcap::api {

struct ApiServerOptions {
  std::string grpc_listen = "127.0.0.1:8081";
  std::string http_listen = "127.0.0.1:8080";
  HttpLimits http_limits;
  // WatchRecommendations: how often each stream polls, how many run at once.
  WatchLimits watch_limits;
  // How many requests run at once, in all and per token (request_admission.h).
  AdmissionLimits admission;
  // Which reads are heavy, and how many run at once (heavy_reads.h).
  HeavyReadLimits heavy_reads;
  // TLS for gRPC and HTTP: PEM certificate and key; with client_ca, clients
  // must present a certificate signed by it (on both transports).
  TlsFiles tls;
  // --web-root: the built dashboard (web/dist) served at "/"; empty: none.
  std::string web_root;
  // --grpc-reflection: gRPC server reflection, which answers without a token
  // and lists every service and method (grpcurl's convenience); off by default.
  bool grpc_reflection = false;
};

class ApiServer {
 public:
  // `pool`, `registry` and `read_pool` must outlive the server. The heavy
  // reads (usage, chargeback and its explanation) go to `read_pool` when
  // given (--db-read), to `pool` otherwise; everything else, and every write,
  // to `pool`.
  static absl::StatusOr<std::unique_ptr<ApiServer>> Start(const ApiServerOptions& options, PgPool* pool,
                                                          prometheus::Registry& registry, PgPool* read_pool = nullptr);
  ~ApiServer();

  int grpc_port() const { return grpc_port_; }
  int http_port() const { return http_->port(); }

  // Stops accepting work, ends the recommendation watches, lets in-flight
  // requests finish (up to a deadline).
  void Shutdown();

 private:
  ApiServer() = default;

  RealClock clock_;
  PgPool* pool_ = nullptr;
  std::unique_ptr<ApiMetrics> metrics_;
  std::unique_ptr<store::InventoryReader> inventory_;
  std::unique_ptr<store::PgTeamFactsRepository> team_facts_;
  std::unique_ptr<TeamAttribution> teams_;
  std::unique_ptr<FleetSummaryQuery> fleet_query_;
  std::unique_ptr<store::PgPolicyRepository> policies_;
  std::unique_ptr<store::PgTokenRepository> tokens_;
  std::unique_ptr<store::PgAuditRepository> audit_;
  std::unique_ptr<Authenticator> auth_;
  std::unique_ptr<RequestAdmission> admission_;  // shared by gRPC and HTTP
  std::unique_ptr<HeavyReads> heavy_reads_;      // shared by gRPC and HTTP
  std::unique_ptr<GrpcGuard> guard_;
  std::unique_ptr<PolicyOperations> policy_ops_;
  std::unique_ptr<TokenOperations> token_ops_;
  std::unique_ptr<AuditOperations> audit_ops_;
  std::unique_ptr<FleetGrpcService> fleet_service_;
  std::unique_ptr<PolicyGrpcService> policy_service_;
  std::unique_ptr<TokenGrpcService> token_service_;
  std::unique_ptr<AuditGrpcService> audit_service_;
  std::unique_ptr<store::PgUsageRepository> usage_;
  std::unique_ptr<UsageQuery> usage_query_;
  std::unique_ptr<UsageGrpcService> usage_service_;
  std::unique_ptr<store::PgAttributionFactsRepository> attribution_facts_;
  std::unique_ptr<store::PgChargebackRepository> chargeback_;
  std::unique_ptr<ActivePolicyCache> active_policy_;  // the chargeback's currency and org tree
  std::unique_ptr<ChargebackQuery> chargeback_query_;
  std::unique_ptr<ChargebackExplainQuery> explain_query_;
  std::unique_ptr<ChargebackGrpcService> chargeback_service_;
  std::unique_ptr<store::PgCapacityRepository> capacity_;
  std::unique_ptr<CapacitySeriesQuery> capacity_query_;
  std::unique_ptr<store::PgDemandHistoryRepository> demand_history_;
  std::unique_ptr<PendingDemandQuery> pending_query_;
  std::unique_ptr<store::PgAllocationRunRepository> allocation_runs_;
  std::unique_ptr<RecommendationsQuery> recommendations_query_;
  std::unique_ptr<RecommendationManifests> manifests_;
  std::unique_ptr<RecommendationWatchers> recommendation_watchers_;
  std::unique_ptr<AllocationGrpcService> allocation_service_;
  std::unique_ptr<store::PgForecastRepository> forecasts_;
  std::unique_ptr<ForecastQuery> forecast_query_;
  std::unique_ptr<store::PgScenarioRepository> scenarios_saved_;
  whatif::EngineForecaster scenario_forecaster_;  // projects held time for what-if scenarios
  std::unique_ptr<ScenarioOperations> scenarios_;
  std::unique_ptr<PlanningGrpcService> planning_service_;
  std::unique_ptr<grpc::Server> grpc_;
  std::unique_ptr<StaticFiles> web_files_;  // --web-root
  std::unique_ptr<HttpGateway> http_;
  int grpc_port_ = 0;
  bool shut_down_ = false;
};

}  // namespace fleetcap::api

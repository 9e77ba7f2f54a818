#include "services/api/api_server.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/impl/server_builder_option.h"
#include "grpcpp/impl/server_builder_plugin.h"
#include "grpcpp/server_builder.h"
#include "services/api/allocation_http_routes.h"
#include "services/api/chargeback_http_routes.h"
#include "services/api/control_http_routes.h"
#include "services/api/fleet_http_routes.h"
#include "services/api/planning_http_routes.h"
#include "services/api/scenario_http_routes.h"
#include "services/api/tls_credentials.h"
#include "services/api/unparsable_request.h"
#include "services/api/usage_http_routes.h"

namespace fleetcap::api {
namespace {

// Takes gRPC's reflection plugin off a server. Loading libgrpc++_reflection
// registers the plugin for every server the process builds, so leaving out
// the call that turns it on is not enough.
class WithoutReflection : public grpc::ServerBuilderOption {
 public:
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    plugins->erase(std::remove_if(plugins->begin(), plugins->end(),
                                  [](const auto& plugin) { return plugin->name() == "proto_server_reflection"; }),
                   plugins->end());
  }
};

}  // namespace

absl::StatusOr<std::unique_ptr<ApiServer>> ApiServer::Start(const ApiServerOptions& options, PgPool* pool,
                                                            prometheus::Registry& registry, PgPool* read_pool) {
  std::unique_ptr<ApiServer> server(new ApiServer());
  server->pool_ = pool;
  // Usage and chargeback go to --db-read when it names another server.
  PgPool* report_pool = read_pool != nullptr ? read_pool : pool;
  server->metrics_ = std::make_unique<ApiMetrics>(registry);
  server->inventory_ = std::make_unique<store::PgInventoryRepository>(server->pool_);
  server->team_facts_ = std::make_unique<store::PgTeamFactsRepository>(server->pool_);
  server->teams_ = std::make_unique<TeamAttribution>(server->team_facts_.get());
  server->policies_ = std::make_unique<store::PgPolicyRepository>(server->pool_);
  server->tokens_ = std::make_unique<store::PgTokenRepository>(server->pool_);
  server->audit_ = std::make_unique<store::PgAuditRepository>(server->pool_);
  server->active_policy_ = std::make_unique<ActivePolicyCache>(server->policies_.get());
  server->auth_ = std::make_unique<Authenticator>(server->tokens_.get(), server->active_policy_.get(), &server->clock_);
  server->admission_ = std::make_unique<RequestAdmission>(options.admission);
  server->heavy_reads_ = std::make_unique<HeavyReads>(options.heavy_reads);
  server->guard_ = std::make_unique<GrpcGuard>(server->auth_.get(), server->metrics_.get(), &server->clock_,
                                               server->admission_.get());
  server->policy_ops_ = std::make_unique<PolicyOperations>(server->policies_.get(), &server->clock_);
  server->token_ops_ = std::make_unique<TokenOperations>(server->tokens_.get(), &server->clock_);
  server->audit_ops_ = std::make_unique<AuditOperations>(server->audit_.get());
  server->policy_service_ = std::make_unique<PolicyGrpcService>(server->guard_.get(), server->policy_ops_.get());
  server->token_service_ = std::make_unique<TokenGrpcService>(server->guard_.get(), server->token_ops_.get());
  server->audit_service_ = std::make_unique<AuditGrpcService>(server->guard_.get(), server->audit_ops_.get());
  FLEETCAP_ASSIGN_OR_RETURN(auto credentials, GrpcServerCredentials(options.tls));
  server->usage_ = std::make_unique<store::PgUsageRepository>(report_pool);
  server->usage_query_ = std::make_unique<UsageQuery>(server->usage_.get(), server->teams_.get());
  server->usage_service_ = std::make_unique<UsageGrpcService>(server->usage_query_.get(), server->guard_.get());
  server->attribution_facts_ = std::make_unique<store::PgAttributionFactsRepository>(report_pool);
  server->chargeback_ = std::make_unique<store::PgChargebackRepository>(report_pool);
  server->chargeback_query_ = std::make_unique<ChargebackQuery>(server->chargeback_.get(), server->active_policy_.get(),
                                                                server->heavy_reads_.get());
  server->fleet_query_ = std::make_unique<FleetSummaryQuery>(server->inventory_.get(), &server->clock_,
                                                             server->teams_.get(), server->chargeback_.get());
  server->capacity_ = std::make_unique<store::PgCapacityRepository>(report_pool);
  server->capacity_query_ = std::make_unique<CapacitySeriesQuery>(server->capacity_.get(), server->chargeback_.get(),
                                                                  server->active_policy_.get());
  server->demand_history_ = std::make_unique<store::PgDemandHistoryRepository>(server->pool_);
  server->pending_query_ =
      std::make_unique<PendingDemandQuery>(server->demand_history_.get(), server->teams_.get(), &server->clock_);
  server->fleet_service_ = std::make_unique<FleetGrpcService>(server->fleet_query_.get(), server->capacity_query_.get(),
                                                              server->pending_query_.get(), server->guard_.get());
  server->explain_query_ = std::make_unique<ChargebackExplainQuery>(
      server->attribution_facts_.get(), server->team_facts_.get(), server->chargeback_.get());
  server->chargeback_service_ = std::make_unique<ChargebackGrpcService>(
      server->chargeback_query_.get(), server->explain_query_.get(), server->guard_.get());
  server->allocation_runs_ = std::make_unique<store::PgAllocationRunRepository>(server->pool_);
  server->recommendations_query_ =
      std::make_unique<RecommendationsQuery>(server->allocation_runs_.get(), server->active_policy_.get());
  server->manifests_ =
      std::make_unique<RecommendationManifests>(server->recommendations_query_.get(), server->policies_.get());
  server->recommendation_watchers_ = std::make_unique<RecommendationWatchers>(
      server->recommendations_query_.get(), &server->clock_, registry, options.watch_limits);
  server->allocation_service_ = std::make_unique<AllocationGrpcService>(
      server->recommendations_query_.get(), server->recommendation_watchers_.get(), server->guard_.get());
  server->forecasts_ = std::make_unique<store::PgForecastRepository>(server->pool_);
  server->forecast_query_ = std::make_unique<ForecastQuery>(server->forecasts_.get());
  server->scenarios_saved_ = std::make_unique<store::PgScenarioRepository>(server->pool_);
  server->scenarios_ = std::make_unique<ScenarioOperations>(
      planning_state::PlanningStores{server->demand_history_.get(), server->team_facts_.get(), server->policies_.get(),
                                     server->chargeback_.get()},
      planning_state::PlanningStateOptions{}, server->scenarios_saved_.get(), &server->scenario_forecaster_,
      &server->clock_);
  server->planning_service_ = std::make_unique<PlanningGrpcService>(server->forecast_query_.get(),
                                                                    server->scenarios_.get(), server->guard_.get());

  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  // Reflection answers without a token (it is gRPC's own service, outside
  // the guard), naming every method: only when asked for (--grpc-reflection).
  if (options.grpc_reflection) {
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  } else {
    builder.SetOption(std::make_unique<WithoutReflection>());
  }
  builder.AddListeningPort(options.grpc_listen, credentials, &server->grpc_port_);
  builder.RegisterService(server->fleet_service_.get());
  builder.RegisterService(server->policy_service_.get());
  builder.RegisterService(server->token_service_.get());
  builder.RegisterService(server->audit_service_.get());
  builder.RegisterService(server->usage_service_.get());
  builder.RegisterService(server->chargeback_service_.get());
  builder.RegisterService(server->allocation_service_.get());
  builder.RegisterService(server->planning_service_.get());
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(UnparsableRequestInterceptors());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  server->grpc_ = builder.BuildAndStart();
  if (server->grpc_ == nullptr || server->grpc_port_ == 0) {
    return absl::UnavailableError(absl::StrCat("--grpc-listen: cannot listen on \"", options.grpc_listen, "\""));
  }

  server->http_ = std::make_unique<HttpGateway>(server->metrics_.get(), server->auth_.get(), &server->clock_,
                                                server->admission_.get());
  AddFleetRoutes(*server->http_, server->fleet_query_.get(), server->capacity_query_.get(),
                 server->pending_query_.get());
  AddUsageRoutes(*server->http_, server->usage_query_.get());
  AddChargebackRoutes(*server->http_, server->chargeback_query_.get());
  AddChargebackExplainRoutes(*server->http_, server->explain_query_.get());
  AddAllocationRoutes(*server->http_, server->recommendations_query_.get(), server->manifests_.get());
  AddPlanningRoutes(*server->http_, server->forecast_query_.get());
  AddScenarioRoutes(*server->http_, server->scenarios_.get());
  AddControlRoutes(*server->http_, server->policy_ops_.get(), server->token_ops_.get(), server->audit_ops_.get());
  if (!options.web_root.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(server->web_files_, StaticFiles::Open(options.web_root));
    server->http_->ServeStaticFiles(server->web_files_.get());
  }
  if (!options.http_listen.empty()) {
    FLEETCAP_RETURN_IF_ERROR(server->http_->Start(options.http_listen, options.tls, options.http_limits));
  }
  return server;
}

void ApiServer::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  http_.reset();
  // A watch would otherwise hold the gRPC shutdown until its deadline.
  if (recommendation_watchers_ != nullptr) recommendation_watchers_->Stop();
  if (grpc_ != nullptr) grpc_->Shutdown(absl::ToChronoTime(clock_.Now() + absl::Seconds(5)));
}

ApiServer::~ApiServer() { Shutdown(); }

}  // namespace fleetcap::api

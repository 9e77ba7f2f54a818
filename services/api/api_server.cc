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
#include "services/api/allocation/allocation_module.h"
#include "services/api/chargeback/chargeback_module.h"
#include "services/api/control/control_module.h"
#include "services/api/fleet/fleet_module.h"
#include "services/api/insights/insights_module.h"
#include "services/api/planning/planning_module.h"
#include "services/api/unparsable_request.h"
#include "services/api/usage/usage_module.h"
#include "services/api/views/views_module.h"

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

// Every feature of the API, in the order their gRPC services are registered.
constexpr RegisterApiModule kModules[] = {RegisterFleet,      RegisterControl,  RegisterUsage, RegisterChargeback,
                                          RegisterAllocation, RegisterPlanning, RegisterViews, RegisterInsights};

}  // namespace

absl::StatusOr<std::unique_ptr<ApiServer>> ApiServer::Start(const ApiServerOptions& options, PgPool* pool,
                                                            prometheus::Registry& registry, PgPool* read_pool) {
  std::unique_ptr<ApiServer> server(new ApiServer());
  server->BuildShared(options, pool, registry, read_pool);
  FLEETCAP_ASSIGN_OR_RETURN(auto credentials, GrpcServerCredentials(options.tls));
  grpc::EnableDefaultHealthCheckService(true);
  grpc::ServerBuilder builder;
  server->http_ = std::make_unique<HttpGateway>(server->metrics_.get(), server->auth_.get(), &server->clock_,
                                                server->admission_.get());
  const ApiDependencies deps = server->Dependencies(options, registry);
  for (RegisterApiModule register_module : kModules) {
    server->modules_.push_back(register_module(deps, builder, *server->http_));
  }
  FLEETCAP_RETURN_IF_ERROR(server->StartGrpc(options, builder, credentials));
  FLEETCAP_RETURN_IF_ERROR(server->StartHttp(options));
  return server;
}

void ApiServer::BuildShared(const ApiServerOptions& options, PgPool* pool, prometheus::Registry& registry,
                            PgPool* read_pool) {
  pool_ = pool;
  // Usage and chargeback go to --db-read when it names another server.
  report_pool_ = read_pool != nullptr ? read_pool : pool;
  metrics_ = std::make_unique<ApiMetrics>(registry);
  team_facts_ = std::make_unique<store::PgTeamFactsRepository>(pool_);
  teams_ = std::make_unique<TeamAttribution>(team_facts_.get());
  policies_ = std::make_unique<store::PgPolicyRepository>(pool_);
  tokens_ = std::make_unique<store::PgTokenRepository>(pool_);
  // One policy cache: what authorizes a request is what its answer reads.
  active_policy_ = std::make_unique<ActivePolicyCache>(policies_.get());
  auth_ = std::make_unique<Authenticator>(tokens_.get(), active_policy_.get(), &clock_);
  admission_ = std::make_unique<RequestAdmission>(options.admission);
  heavy_reads_ = std::make_unique<HeavyReads>(options.heavy_reads);
  guard_ = std::make_unique<GrpcGuard>(auth_.get(), metrics_.get(), &clock_, admission_.get());
  chargeback_ = std::make_unique<store::PgChargebackRepository>(report_pool_);
  demand_history_ = std::make_unique<store::PgDemandHistoryRepository>(pool_);
}

ApiDependencies ApiServer::Dependencies(const ApiServerOptions& options, prometheus::Registry& registry) const {
  ApiDependencies deps;
  deps.options = &options;
  deps.pool = pool_;
  deps.report_pool = report_pool_;
  deps.clock = &clock_;
  deps.registry = &registry;
  deps.guard = guard_.get();
  deps.teams = teams_.get();
  deps.active_policy = active_policy_.get();
  deps.heavy_reads = heavy_reads_.get();
  deps.team_facts = team_facts_.get();
  deps.policies = policies_.get();
  deps.tokens = tokens_.get();
  deps.chargeback = chargeback_.get();
  deps.demand_history = demand_history_.get();
  return deps;
}

absl::Status ApiServer::StartGrpc(const ApiServerOptions& options, grpc::ServerBuilder& builder,
                                  const std::shared_ptr<grpc::ServerCredentials>& credentials) {
  // Reflection answers without a token (it is gRPC's own service, outside
  // the guard), naming every method: only when asked for (--grpc-reflection).
  if (options.grpc_reflection) {
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  } else {
    builder.SetOption(std::make_unique<WithoutReflection>());
  }
  builder.AddListeningPort(options.grpc_listen, credentials, &grpc_port_);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(UnparsableRequestInterceptors());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  grpc_ = builder.BuildAndStart();
  if (grpc_ == nullptr || grpc_port_ == 0) {
    return absl::UnavailableError(absl::StrCat("--grpc-listen: cannot listen on \"", options.grpc_listen, "\""));
  }
  return absl::OkStatus();
}

absl::Status ApiServer::StartHttp(const ApiServerOptions& options) {
  if (!options.web_root.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(web_files_, StaticFiles::Open(options.web_root));
    http_->ServeStaticFiles(web_files_.get());
  }
  if (!options.http_listen.empty()) {
    FLEETCAP_RETURN_IF_ERROR(http_->Start(options.http_listen, options.tls, options.http_limits));
  }
  return absl::OkStatus();
}

void ApiServer::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  http_.reset();
  // A watch would otherwise hold the gRPC shutdown until its deadline.
  for (const auto& module : modules_) module->Stop();
  if (grpc_ != nullptr) grpc_->Shutdown(absl::ToChronoTime(clock_.Now() + absl::Seconds(5)));
}

ApiServer::~ApiServer() { Shutdown(); }

}  // namespace fleetcap::api

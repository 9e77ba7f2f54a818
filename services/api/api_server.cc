#include "services/api/api_server.h"

#include "absl/strings/str_cat.h"
#include "common/logging.h"
#include "common/status_macros.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/server_builder.h"
#include "services/api/control_http_routes.h"
#include "services/api/fleet_http_routes.h"
#include "services/api/tls_credentials.h"
#include "services/api/usage_http_routes.h"
#include "store/migrator.h"

namespace fleetcap::api {

absl::StatusOr<std::unique_ptr<ApiServer>> ApiServer::Start(const ApiServerOptions& options) {
  std::unique_ptr<ApiServer> server(new ApiServer());
  if (options.db.empty()) {
    return absl::InvalidArgumentError("--db: empty; give a libpq URI or set FLEETCAP_DB");
  }
  {
    FLEETCAP_ASSIGN_OR_RETURN(auto conn, PgConnect(options.db));
    if (auto status = store::Migrator().EnsureCurrent(*conn, options.migrate); !status.ok()) {
      return status;
    }
  }
  if (options.db_connections < 1) return absl::InvalidArgumentError("--db-connections: expected 1 or more");
  FLEETCAP_ASSIGN_OR_RETURN(server->pool_, PgPool::Open(options.db, options.db_connections,
                                                        PgPoolOptions{options.db_wait, options.db_statement_timeout}));

  server->registry_ = std::make_shared<prometheus::Registry>();
  server->metrics_ = std::make_unique<ApiMetrics>(*server->registry_);
  server->inventory_ = std::make_unique<store::PgInventoryRepository>(server->pool_.get());
  server->team_facts_ = std::make_unique<store::PgTeamFactsRepository>(server->pool_.get());
  server->teams_ = std::make_unique<TeamAttribution>(server->team_facts_.get());
  server->fleet_query_ =
      std::make_unique<FleetSummaryQuery>(server->inventory_.get(), &server->clock_, server->teams_.get());
  server->policies_ = std::make_unique<store::PgPolicyRepository>(server->pool_.get());
  server->tokens_ = std::make_unique<store::PgTokenRepository>(server->pool_.get());
  server->audit_ = std::make_unique<store::PgAuditRepository>(server->pool_.get());
  server->auth_ = std::make_unique<Authenticator>(server->tokens_.get(), server->policies_.get(), &server->clock_);
  server->guard_ = std::make_unique<GrpcGuard>(server->auth_.get(), server->metrics_.get());
  server->policy_ops_ = std::make_unique<PolicyOperations>(server->policies_.get(), &server->clock_);
  server->token_ops_ = std::make_unique<TokenOperations>(server->tokens_.get(), &server->clock_);
  server->audit_ops_ = std::make_unique<AuditOperations>(server->audit_.get());
  server->fleet_service_ = std::make_unique<FleetGrpcService>(server->fleet_query_.get(), server->guard_.get());
  server->policy_service_ = std::make_unique<PolicyGrpcService>(server->guard_.get(), server->policy_ops_.get());
  server->token_service_ = std::make_unique<TokenGrpcService>(server->guard_.get(), server->token_ops_.get());
  server->audit_service_ = std::make_unique<AuditGrpcService>(server->guard_.get(), server->audit_ops_.get());
  FLEETCAP_ASSIGN_OR_RETURN(auto credentials, GrpcServerCredentials(options.tls));
  server->usage_query_ = std::make_unique<UsageQuery>(server->pool_.get(), server->teams_.get());
  server->usage_service_ = std::make_unique<UsageGrpcService>(server->usage_query_.get(), server->guard_.get());

  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(options.grpc_listen, credentials, &server->grpc_port_);
  builder.RegisterService(server->fleet_service_.get());
  builder.RegisterService(server->policy_service_.get());
  builder.RegisterService(server->token_service_.get());
  builder.RegisterService(server->audit_service_.get());
  builder.RegisterService(server->usage_service_.get());
  server->grpc_ = builder.BuildAndStart();
  if (server->grpc_ == nullptr || server->grpc_port_ == 0) {
    return absl::UnavailableError(absl::StrCat("--grpc-listen: cannot listen on \"", options.grpc_listen, "\""));
  }

  server->http_ = std::make_unique<HttpGateway>(server->metrics_.get(), server->auth_.get());
  AddFleetRoutes(*server->http_, server->fleet_query_.get());
  AddUsageRoutes(*server->http_, server->usage_query_.get());
  AddControlRoutes(*server->http_, server->policy_ops_.get(), server->token_ops_.get(), server->audit_ops_.get());
  if (!options.http_listen.empty()) {
    FLEETCAP_RETURN_IF_ERROR(server->http_->Start(options.http_listen, options.tls, options.http_limits));
  }

  if (!options.metrics_listen.empty()) {
    FLEETCAP_ASSIGN_OR_RETURN(auto metrics, MetricsServer::Start(options.metrics_listen, server->registry_));
    server->metrics_server_ = std::move(metrics);
  }
  return server;
}

void ApiServer::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  http_.reset();
  if (grpc_ != nullptr) grpc_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(5));
}

ApiServer::~ApiServer() { Shutdown(); }

}  // namespace fleetcap::api

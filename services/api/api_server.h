#pragma once
// fleetcap-api assembled: the repositories, the gRPC services (with health
// checking and reflection) and the HTTP/JSON gateway, over the pool and the
// metrics registry of the daemon that runs it (common/daemon.h).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "common/pg_pool.h"
#include "grpcpp/server.h"
#include "prometheus/registry.h"
#include "services/api/active_policy_cache.h"
#include "services/api/allocation/recommendation_watchers.h"
#include "services/api/api_metrics.h"
#include "services/api/api_module.h"
#include "services/api/auth.h"
#include "services/api/grpc_guard.h"
#include "services/api/heavy_reads.h"
#include "services/api/http_gateway.h"
#include "services/api/request_admission.h"
#include "services/api/static_files.h"
#include "services/api/team_attribution.h"
#include "services/api/tls_credentials.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_demand_history_repository.h"
#include "store/pg_team_facts_repository.h"

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

  // What the features share (api_module.h), and the dependencies that hand it
  // to them.
  void BuildShared(const ApiServerOptions& options, PgPool* pool, prometheus::Registry& registry, PgPool* read_pool);
  ApiDependencies Dependencies(const ApiServerOptions& options, prometheus::Registry& registry) const;
  // gRPC with health checking, reflection only when asked for, every feature's
  // services, started on --grpc-listen.
  absl::Status StartGrpc(const ApiServerOptions& options, grpc::ServerBuilder& builder,
                         const std::shared_ptr<grpc::ServerCredentials>& credentials);
  absl::Status StartHttp(const ApiServerOptions& options);

  RealClock clock_;
  PgPool* pool_ = nullptr;
  PgPool* report_pool_ = nullptr;  // --db-read when it names another server, else `pool_`
  std::unique_ptr<ApiMetrics> metrics_;
  std::unique_ptr<store::PgTeamFactsRepository> team_facts_;
  std::unique_ptr<TeamAttribution> teams_;
  std::unique_ptr<store::PgPolicyRepository> policies_;
  std::unique_ptr<store::PgTokenRepository> tokens_;
  std::unique_ptr<ActivePolicyCache> active_policy_;  // the policy in force: authorization and answers
  std::unique_ptr<Authenticator> auth_;
  std::unique_ptr<RequestAdmission> admission_;  // shared by gRPC and HTTP
  std::unique_ptr<HeavyReads> heavy_reads_;      // shared by gRPC and HTTP
  std::unique_ptr<GrpcGuard> guard_;
  std::unique_ptr<store::PgChargebackRepository> chargeback_;
  std::unique_ptr<store::PgDemandHistoryRepository> demand_history_;
  // One a feature; its gRPC services and HTTP routes point into it.
  std::vector<std::unique_ptr<ApiModule>> modules_;
  std::unique_ptr<grpc::Server> grpc_;
  std::unique_ptr<StaticFiles> web_files_;  // --web-root
  std::unique_ptr<HttpGateway> http_;       // built before the modules, which add its routes
  int grpc_port_ = 0;
  bool shut_down_ = false;
};

}  // namespace fleetcap::api

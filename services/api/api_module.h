#pragma once
// How a feature of the API joins the server. Each feature folder (fleet/,
// usage/, chargeback/, allocation/, planning/, control/) has one entry point,
// `<feature>/<feature>_module.h`, declaring a function of the type
// `RegisterApiModule`: it builds the feature's queries and operations from the
// shared dependencies, adds its gRPC services to the builder and its routes to
// the HTTP gateway, and returns what it built. ApiServer keeps the module until
// it shuts down; the services and routes point into it.

#include <memory>

#include "common/clock.h"
#include "common/pg_pool.h"
#include "grpcpp/server_builder.h"
#include "prometheus/registry.h"
#include "services/api/active_policy_cache.h"
#include "services/api/grpc_guard.h"
#include "services/api/heavy_reads.h"
#include "services/api/http_gateway.h"
#include "services/api/team_attribution.h"
#include "store/pg_chargeback_repository.h"
#include "store/pg_control_repositories.h"
#include "store/pg_demand_history_repository.h"
#include "store/pg_team_facts_repository.h"

namespace fleetcap::api {

struct ApiServerOptions;

// What more than one feature uses, built once by ApiServer, which outlives
// every module.
struct ApiDependencies {
  const ApiServerOptions* options = nullptr;
  PgPool* pool = nullptr;         // every write, and the light reads
  PgPool* report_pool = nullptr;  // the heavy reads: --db-read when given, else `pool`
  const Clock* clock = nullptr;
  prometheus::Registry* registry = nullptr;
  const GrpcGuard* guard = nullptr;  // authentication, access and admission of each call
  TeamAttribution* teams = nullptr;
  ActivePolicyCache* active_policy = nullptr;  // the chargeback's currency and org tree
  HeavyReads* heavy_reads = nullptr;
  store::PgTeamFactsRepository* team_facts = nullptr;
  store::PgPolicyRepository* policies = nullptr;
  store::PgTokenRepository* tokens = nullptr;
  store::PgChargebackRepository* chargeback = nullptr;  // on `report_pool`
  store::PgDemandHistoryRepository* demand_history = nullptr;
};

// What a feature built and owns.
class ApiModule {
 public:
  virtual ~ApiModule() = default;
  // Called once when the server shuts down, before gRPC stops: ends what would
  // otherwise hold the shutdown (a stream waiting for news).
  virtual void Stop() {}
};

using RegisterApiModule = std::unique_ptr<ApiModule> (*)(const ApiDependencies& deps, grpc::ServerBuilder& grpc,
                                                         HttpGateway& http);

// What every `Register<Feature>` does: builds the feature's module `Module`
// from the dependencies, lets it add its services and routes
// (`Module::Register(grpc, http)`), and hands it to the server to keep.
template <typename Module>
std::unique_ptr<ApiModule> BuildAndRegister(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  auto module = std::make_unique<Module>(deps);
  module->Register(grpc, http);
  return module;
}

}  // namespace fleetcap::api

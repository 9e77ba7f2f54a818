#include "services/api/allocation/allocation_module.h"

#include "services/api/allocation/allocation_grpc_service.h"
#include "services/api/allocation/allocation_http_routes.h"
#include "services/api/allocation/recommendation_manifests.h"
#include "services/api/allocation/recommendation_watchers.h"
#include "services/api/allocation/recommendations_query.h"
#include "services/api/api_server.h"
#include "store/pg_allocation_run_repository.h"
#include "store/pg_live_inventory_repository.h"

namespace fleetcap::api {
namespace {

class AllocationModule final : public ApiModule {
 public:
  explicit AllocationModule(const ApiDependencies& deps)
      : runs_(deps.pool),
        inventory_(deps.pool),
        query_(&runs_, deps.active_policy, deps.policies, &inventory_),
        manifests_(&query_, deps.policies),
        watchers_(&query_, deps.clock, *deps.registry, deps.options->watch_limits),
        service_(&query_, &watchers_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddAllocationRoutes(http, &query_, &manifests_);
  }

  // A watch would otherwise hold the gRPC shutdown until its deadline.
  void Stop() override { watchers_.Stop(); }

 private:
  store::PgAllocationRunRepository runs_;
  store::PgLiveInventoryRepository inventory_;  // read through InventoryReader only
  RecommendationsQuery query_;
  RecommendationManifests manifests_;
  RecommendationWatchers watchers_;
  AllocationGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterAllocation(const ApiDependencies& deps, grpc::ServerBuilder& grpc,
                                              HttpGateway& http) {
  return BuildAndRegister<AllocationModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

#include "services/api/fleet/fleet_module.h"

#include "services/api/fleet/assets_query.h"
#include "services/api/fleet/capacity_series.h"
#include "services/api/fleet/device_holds.h"
#include "services/api/fleet/fleet_grpc_service.h"
#include "services/api/fleet/fleet_http_routes.h"
#include "services/api/fleet/fleet_summary.h"
#include "services/api/fleet/pending_demand.h"
#include "store/pg_capacity_repository.h"
#include "store/pg_live_inventory_repository.h"

namespace fleetcap::api {
namespace {

class FleetModule final : public ApiModule {
 public:
  explicit FleetModule(const ApiDependencies& deps)
      : inventory_(deps.pool),
        summary_(&inventory_, deps.clock, deps.teams, deps.chargeback),
        capacity_(deps.report_pool),
        capacity_series_(&capacity_, deps.chargeback, deps.active_policy),
        assets_(&capacity_, deps.chargeback, deps.active_policy),
        device_holds_(&capacity_, deps.teams),
        pending_(deps.demand_history, deps.teams, deps.clock),
        service_(&summary_, &capacity_series_, &assets_, &device_holds_, &pending_, deps.guard) {}

  void Register(grpc::ServerBuilder& grpc, HttpGateway& http) {
    grpc.RegisterService(&service_);
    AddFleetRoutes(http, &summary_, &capacity_series_, &assets_, &device_holds_, &pending_);
  }

 private:
  store::PgLiveInventoryRepository inventory_;  // read through InventoryReader only
  FleetSummaryQuery summary_;
  store::PgCapacityRepository capacity_;
  CapacitySeriesQuery capacity_series_;
  AssetsQuery assets_;
  DeviceHoldsQuery device_holds_;
  PendingDemandQuery pending_;
  FleetGrpcService service_;
};

}  // namespace

std::unique_ptr<ApiModule> RegisterFleet(const ApiDependencies& deps, grpc::ServerBuilder& grpc, HttpGateway& http) {
  return BuildAndRegister<FleetModule>(deps, grpc, http);
}

}  // namespace fleetcap::api

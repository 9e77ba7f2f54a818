#pragma once
// FleetService.GetAssets as a transport-free operation: the fleet's assets
// over a window per model, cluster, node or device (docs/fleet.md, "Assets").
// Capacity, held and idle device time come from the devices' service
// intervals and their holds (store/capacity_repository.h, AssetTimes);
// used and observed device time and idle cost from the chargeback: per
// model or cluster its lines', per node or device what the holds on its
// devices came to (ChargebackReadRepository::DevicesHeld), and a node's or
// device's idle cost its model and cluster's spread by idle device time
// (idle_cost_spread.h).
//
// Nodes and devices are many: the rows are ordered by idle device time,
// largest first, and cut at `limit`; the totals are over every group.

#include <cstdint>

#include "absl/status/statusor.h"
#include "fleetcap/v1/fleet.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "services/api/query_message.h"
#include "store/capacity_repository.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

inline constexpr int64_t kDefaultAssetRows = 200;
inline constexpr int64_t kMaxAssetRows = 1'000;

class AssetsQuery {
 public:
  // All must outlive the query and be thread-safe.
  AssetsQuery(const store::CapacityReadRepository* capacity, const store::ChargebackReadRepository* lines,
              const ActivePolicyCache* policies)
      : capacity_(capacity), lines_(lines), policies_(policies) {}

  // INVALID_ARGUMENT naming the field for a bad window, group_by, filter or
  // limit; PERMISSION_DENIED for a team token (the fleet's assets are the
  // planners'; the access table refuses it first).
  absl::StatusOr<v1::Assets> Run(const Scope& scope, const v1::GetAssetsRequest& request) const;

 private:
  const store::CapacityReadRepository* capacity_;
  const store::ChargebackReadRepository* lines_;
  const ActivePolicyCache* policies_;
};

// The request of `GET /v1/fleet/assets?start=&end=&group_by=&cluster=&model=&node=&limit=`;
// INVALID_ARGUMENT naming the parameter. `route_mapping` names the parameters a route reads itself
// (the export's format).
absl::StatusOr<v1::GetAssetsRequest> AssetsRequestFromQuery(const HttpQuery& query,
                                                            const QueryMapping& route_mapping = {});

}  // namespace fleetcap::api

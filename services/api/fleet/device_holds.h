#pragma once
// FleetService.ListDeviceHolds as a transport-free operation: the pods that
// held one device over a window, the drill-down of an asset row
// (docs/fleet.md, "Assets"). Each hold is clipped to the window and its pod's
// team resolved with the policy in force at the hold's start there.

#include <cstdint>

#include "absl/status/statusor.h"
#include "fleetcap/v1/fleet.pb.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "services/api/team_attribution.h"
#include "store/capacity_repository.h"

namespace fleetcap::api {

class DeviceHoldsQuery {
 public:
  // All must outlive the query and be thread-safe. `max_holds` bounds an answer (tests lower it).
  DeviceHoldsQuery(const store::CapacityReadRepository* capacity, TeamAttribution* teams,
                   int max_holds = store::kMaxDeviceHolds)
      : capacity_(capacity), teams_(teams), max_holds_(max_holds) {}

  // INVALID_ARGUMENT naming the field for a bad window or a missing cluster
  // or device; PERMISSION_DENIED for a team token.
  absl::StatusOr<v1::DeviceHolds> Run(const Scope& scope, const v1::ListDeviceHoldsRequest& request) const;

 private:
  const store::CapacityReadRepository* capacity_;
  TeamAttribution* teams_;
  int max_holds_;
};

// The request of `GET /v1/fleet/assets/holds?cluster=&device=&start=&end=`;
// INVALID_ARGUMENT naming the parameter.
absl::StatusOr<v1::ListDeviceHoldsRequest> DeviceHoldsRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

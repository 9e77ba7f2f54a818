#pragma once
// FleetService.ListPendingDemand as a transport-free operation: the pods
// waiting for accelerators now (pending_demand, through
// store/demand_history_repository.h), each with the team the policy in force
// now gives it. Admins and planners see every pod; a team token only the
// pods of its own subtree.

#include <cstdint>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "fleetcap/v1/fleet.pb.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "services/api/team_attribution.h"
#include "store/demand_history_repository.h"

namespace fleetcap::api {

// The most waiting pods one answer reads, oldest waits first.
inline constexpr int64_t kMaxPendingPods = 10'000;

class PendingDemandQuery {
 public:
  // All must outlive the query; the repository and `teams` must be thread-safe.
  PendingDemandQuery(store::DemandHistoryRepository* demand, TeamAttribution* teams, const Clock* clock,
                     int64_t max_pods = kMaxPendingPods)
      : demand_(demand), teams_(teams), clock_(clock), max_pods_(max_pods) {}

  // INVALID_ARGUMENT naming `cluster` when it cannot be a cluster name.
  absl::StatusOr<v1::PendingDemand> Run(const Scope& scope, const v1::ListPendingDemandRequest& request) const;

 private:
  store::DemandHistoryRepository* demand_;
  TeamAttribution* teams_;
  const Clock* clock_;
  int64_t max_pods_;
};

// The request of `GET /v1/fleet/pending?cluster=`.
absl::StatusOr<v1::ListPendingDemandRequest> PendingDemandRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

#pragma once
// FleetService.GetCapacitySeries as a transport-free operation: capacity
// (devices in service), held and used device time per bucket, grouped by any
// of model, cluster and team. Held and used come from the chargeback's hourly
// and daily rollups (store/chargeback_repository.h, the by-team tables),
// capacity from the devices' service intervals (store/capacity_repository.h):
// never from minute rows, so 90 days hourly over the whole fleet is cheap.
//
// Capacity belongs to no team: it is filled only when the request neither
// groups nor filters by team. So what a team token may ask for is held and
// used of its own subtree: it must group by team or name a team in its
// subtree; the fleet's capacity by model or cluster is for planners and
// admins.
//
// Two layouts of the same figures: BUCKETS (a bucket object per group and
// bucket with data) and COLUMNAR (one time axis, three arrays per group
// aligned to it, 0 where a group has no data), which long hourly series are
// asked in: no timestamp and no field names per bucket to encode and parse.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fleetcap/v1/fleet.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "store/capacity_repository.h"
#include "store/chargeback_repository.h"

namespace fleetcap::api {

// The most buckets one series may span (400 days of hours is 9,600).
inline constexpr int64_t kMaxCapacityBuckets = 10'000;
// The most (group, bucket) points one answer carries, about 25 MB of JSON:
// more is INVALID_ARGUMENT naming group_by.
inline constexpr int64_t kMaxCapacityPoints = 250'000;

class CapacitySeriesQuery {
 public:
  // All must outlive the query and be thread-safe. `max_points` bounds an answer (tests lower it).
  CapacitySeriesQuery(const store::CapacityReadRepository* capacity, const store::ChargebackReadRepository* lines,
                      const ActivePolicyCache* policies, int64_t max_points = kMaxCapacityPoints)
      : capacity_(capacity), lines_(lines), policies_(policies), max_points_(max_points) {}

  // INVALID_ARGUMENT naming the field for a bad window, resolution or
  // group_by, or an answer past the bounds; PERMISSION_DENIED for a team
  // token asking for more than its subtree (the same answer whether or not
  // the team it named exists).
  absl::StatusOr<v1::CapacitySeries> Run(const Scope& scope, const v1::GetCapacitySeriesRequest& request) const;

 private:
  const store::CapacityReadRepository* capacity_;
  const store::ChargebackReadRepository* lines_;
  const ActivePolicyCache* policies_;
  int64_t max_points_;
};

// The request of `GET /v1/fleet/capacity?start=&end=&resolution=minute|hour|day&group_by=model,cluster,team
// &cluster=&model=&team=&layout=buckets|columnar`; INVALID_ARGUMENT naming the parameter.
absl::StatusOr<v1::GetCapacitySeriesRequest> CapacitySeriesRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

#pragma once
// InsightsService.GetWaste as a transport-free operation over the stored
// waste (store/insight_waste_repository.h): the window's sums per workload,
// added up by the waste engine's own code (optimizer/insights/waste_summary.h),
// and the runs of the workloads listed. The gRPC method and the HTTP
// route are thin adapters over it (docs/insights.md, "Waste").
//
// A team token sees its own team and the teams under it, never the idle or
// unassigned lines' teams nor another team's; its fleet efficiency is over
// what it sees.

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "services/api/query_message.h"
#include "store/insight_waste_repository.h"

namespace fleetcap::api {

// The longest window one request may read: as the chargeback's.
inline constexpr absl::Duration kMaxWasteWindow = absl::Hours(24 * 400);
inline constexpr int32_t kDefaultWasteLimit = 50;
inline constexpr int32_t kMaxWasteLimit = 1000;
// The runs listed per workload (run_count counts them all).
inline constexpr int kRunsPerWorkload = 20;
// The most run pieces (a pod's idle hours) of the workloads listed one
// answer reads for their runs; more is RESOURCE_EXHAUSTED, asking for a
// narrower window or a filter. The figures are read from the window's sums
// (InsightWasteRepository::WasteSums), whatever its size.
inline constexpr int64_t kMaxWastePieces = 2'000'000;

class WasteQuery {
 public:
  // Both must outlive the query.
  WasteQuery(const store::InsightWasteRepository* waste, const ActivePolicyCache* policies,
             int64_t max_pieces = kMaxWastePieces)
      : waste_(waste), policies_(policies), max_pieces_(max_pieces) {}

  // INVALID_ARGUMENT naming the field for a bad window or limit;
  // PERMISSION_DENIED when a team token names a team outside its subtree;
  // RESOURCE_EXHAUSTED past `max_pieces` pieces of the workloads listed.
  absl::StatusOr<v1::WasteReport> Run(const Scope& scope, const v1::GetWasteRequest& request) const;

 private:
  const store::InsightWasteRepository* waste_;
  const ActivePolicyCache* policies_;
  int64_t max_pieces_;
};

// The request of `GET /v1/insights/waste?start=&end=&team=&namespace=&cluster=&limit=`, start and end required.
absl::StatusOr<v1::GetWasteRequest> WasteRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

#pragma once
// InsightsService.GetRightsizing as a transport-free operation: the latest
// rightsizing recommendations the optimizer stored per cluster
// (store/rightsizing_repository.h, docs/insights.md, "Rightsizing"), the
// largest saving first, cut at `limit`, with the totals of every one
// selected. A team token sees its own team's subtree only, as the
// chargeback does; `team` selects a team and those under it.

#include <cstdint>

#include "absl/status/statusor.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/api/active_policy_cache.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "store/rightsizing_repository.h"

namespace fleetcap::api {

inline constexpr int32_t kDefaultRightsizingRows = 50;
inline constexpr int32_t kMaxRightsizingRows = 1'000;

class RightsizingQuery {
 public:
  // Both must outlive the query and be thread-safe.
  RightsizingQuery(const store::RightsizingRepository* recommendations, const ActivePolicyCache* policies)
      : recommendations_(recommendations), policies_(policies) {}

  // INVALID_ARGUMENT naming the field for a bad limit; PERMISSION_DENIED for
  // a team outside a team token's subtree.
  absl::StatusOr<v1::RightsizingReport> Run(const Scope& scope, const v1::GetRightsizingRequest& request) const;

 private:
  const store::RightsizingRepository* recommendations_;
  const ActivePolicyCache* policies_;
};

// The request of `GET /v1/insights/rightsizing?team=&namespace=&cluster=&limit=`;
// INVALID_ARGUMENT naming the parameter.
absl::StatusOr<v1::GetRightsizingRequest> RightsizingRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

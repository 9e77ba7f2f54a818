#pragma once
// UsageService.GetUsage as a transport-free operation over the usage
// repository (store/usage_repository.h). The gRPC service and the HTTP route
// are thin adapters over it.

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/usage.pb.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "services/api/team_attribution.h"
#include "store/usage_repository.h"

namespace fleetcap::api {

class UsageQuery {
 public:
  // Both must outlive the query.
  UsageQuery(const store::UsageReadRepository* usage, TeamAttribution* teams) : usage_(usage), teams_(teams) {}

  absl::StatusOr<v1::UsageReport> Run(const v1::GetUsageRequest& request) const;

  // Team tokens read only their own namespaces: the request must name a
  // namespace that, with each of its pods, the policy in force over the
  // window attributes to teams the scope covers (TeamAttribution). A
  // namespace no rule maps is unassigned and so out of scope, and the answer
  // never tells whether it exists. Other roles that reach here read
  // everything.
  absl::Status Authorize(const Scope& scope, const v1::GetUsageRequest& request) const;

 private:
  const store::UsageReadRepository* usage_;
  TeamAttribution* teams_;
};

// The request of `GET /v1/usage?cluster=&start=&end=&resolution=&device=|node=|model=|pod=|namespace=`:
// the query mapped onto GetUsageRequest (query_message.h), start and end required, resolution hour by default.
absl::StatusOr<v1::GetUsageRequest> UsageRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

#pragma once
// UsageService.GetUsage as a transport-free operation over usage_minute.
// The gRPC service and the HTTP route are thin adapters over it.

#include <string>

#include "absl/status/statusor.h"
#include "common/pg_pool.h"
#include "fleetcap/v1/usage.pb.h"
#include "services/api/auth.h"

namespace fleetcap::api {

class UsageQuery {
 public:
  explicit UsageQuery(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<v1::UsageReport> Run(const v1::GetUsageRequest& request) const;

  // Team tokens read only their own namespaces: the request must name a
  // namespace whose pods all belong to teams the scope covers (a namespace
  // with no pods is out of scope, so the answer never tells whether it
  // exists). Other roles that reach here read everything.
  absl::Status Authorize(const Scope& scope, const v1::GetUsageRequest& request) const;

 private:
  PgPool* pool_;
};

// The request of `GET /v1/usage?cluster=&start=&end=&resolution=&device=|node=|model=|pod=|namespace=`.
absl::StatusOr<v1::GetUsageRequest> UsageRequestFromQuery(const std::map<std::string, std::string>& query);

// "minute", "hour", "day" (any case); INVALID_ARGUMENT naming `field` otherwise.
absl::StatusOr<v1::Resolution> ParseResolution(const std::string& field, const std::string& text);

}  // namespace fleetcap::api

#pragma once
// UsageService.GetUsage as a transport-free operation over usage_minute.
// The gRPC service and the HTTP route are thin adapters over it.

#include <string>

#include "absl/status/statusor.h"
#include "common/pg_pool.h"
#include "fleetcap/v1/usage.pb.h"

namespace fleetcap::api {

class UsageQuery {
 public:
  explicit UsageQuery(PgPool* pool) : pool_(pool) {}

  absl::StatusOr<v1::UsageReport> Run(const v1::GetUsageRequest& request) const;

 private:
  PgPool* pool_;
};

// The request of `GET /v1/usage?cluster=&start=&end=&resolution=&device=|node=|model=|pod=|namespace=`.
absl::StatusOr<v1::GetUsageRequest> UsageRequestFromQuery(const std::map<std::string, std::string>& query);

// "minute", "hour", "day" (any case); INVALID_ARGUMENT naming `field` otherwise.
absl::StatusOr<v1::Resolution> ParseResolution(const std::string& field, const std::string& text);

}  // namespace fleetcap::api

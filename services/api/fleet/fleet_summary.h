#pragma once
// FleetService.GetFleetSummary as a transport-free operation: validates the
// request, asks the inventory repository, and builds the response message.
// The gRPC service and the HTTP gateway are thin adapters over it.

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "common/clock.h"
#include "fleetcap/v1/fleet.pb.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "services/api/team_attribution.h"
#include "store/chargeback_repository.h"
#include "store/inventory_reader.h"

namespace fleetcap::api {

class FleetSummaryQuery {
 public:
  // All must outlive the query. The repositories must be thread-safe. Without
  // `teams` the summary has no per-team lines; without `lines` (the
  // chargeback) every model's used_milli is 0.
  FleetSummaryQuery(store::InventoryReader* inventory, const Clock* clock, TeamAttribution* teams = nullptr,
                    const store::ChargebackReadRepository* lines = nullptr)
      : inventory_(inventory), clock_(clock), teams_(teams), lines_(lines) {}

  // INVALID_ARGUMENT for a malformed `at`; NOT_FOUND for an unknown cluster.
  // The teams are resolved with the one policy version in force at `at` as
  // the request sees it: no version numbered above PolicyVersionOf(scope).
  absl::StatusOr<v1::FleetSummary> Run(const Scope& scope, const v1::GetFleetSummaryRequest& request) const;
  // The same under every version applied so far.
  absl::StatusOr<v1::FleetSummary> Run(const v1::GetFleetSummaryRequest& request) const {
    return Run(policy::PolicyTimeline::kEveryVersion, request);
  }

 private:
  absl::StatusOr<v1::FleetSummary> Run(int32_t up_to, const v1::GetFleetSummaryRequest& request) const;

  store::InventoryReader* inventory_;
  const Clock* clock_;
  TeamAttribution* teams_;
  const store::ChargebackReadRepository* lines_;
};

// The request of `GET /v1/fleet/summary?cluster=&at=`, `at` in RFC 3339 (absent: now).
absl::StatusOr<v1::GetFleetSummaryRequest> FleetSummaryRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

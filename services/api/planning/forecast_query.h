#pragma once
// PlanningService.GetForecast as a transport-free operation over the stored
// forecast runs (store/forecast_repository.h). The gRPC service and the HTTP
// route are thin adapters over it (docs/planning.md, "Serving forecasts").
//
// Planners and admins read every series. A team token reads the series of
// its own team and of the teams under it, never a flavor's total, and gets
// no capacity and no exhaustion day: capacity belongs to no team, as in
// GetCapacitySeries.

#include <cstdint>

#include "absl/status/statusor.h"
#include "fleetcap/v1/planning.pb.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "store/forecast_repository.h"

namespace fleetcap::api {

// Horizons up to this many hours are answered hourly, longer ones daily.
inline constexpr int32_t kForecastHourlyUpToHours = 14 * 24;
// The longest horizon one may ask for (90 days).
inline constexpr int32_t kMaxForecastHorizonHours = 90 * 24;

class ForecastQuery {
 public:
  // `forecasts` must outlive the query and be thread-safe.
  explicit ForecastQuery(store::ForecastRepository* forecasts) : forecasts_(forecasts) {}

  // INVALID_ARGUMENT naming the field; PERMISSION_DENIED for a team token
  // asking for a flavor's total or a team outside its subtree (the same
  // answer whether or not the team exists); NOT_FOUND before the first run
  // or for a series the newest run does not hold.
  absl::StatusOr<v1::Forecast> Run(const Scope& scope, const v1::GetForecastRequest& request) const;

 private:
  store::ForecastRepository* forecasts_;
};

// The request of `GET /v1/forecast?flavor=&team=&horizon=&what=`, `horizon`
// as whole hours or days ("72h", "90d"); INVALID_ARGUMENT naming the parameter.
absl::StatusOr<v1::GetForecastRequest> ForecastRequestFromQuery(const HttpQuery& query);

}  // namespace fleetcap::api

#pragma once
// Validation of the engine's inputs, shared by every entry point so each
// refuses the same things with the same words.

#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "optimizer/forecast/forecast.h"

namespace fleetcap::forecast {

// `name` prefixes the fields in messages ("series", "series[3]").
absl::Status CheckSeries(const HourlySeries& series, absl::string_view name);
absl::Status CheckOptions(const ForecastOptions& options);

}  // namespace fleetcap::forecast

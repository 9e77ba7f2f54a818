#pragma once
// How `fleetcapctl forecast` prints a Forecast: a table for people, CSV for
// spreadsheets, the API's proto3 JSON for programs. Pure functions, exact
// and stable: devices are milli-devices printed as decimals with three
// places, times are RFC 3339 UTC.

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/planning.pb.h"
#include "services/exports/report_format.h"

namespace fleetcap::exports {

std::string RenderForecast(const v1::Forecast& forecast, ReportFormat format);

// A few lines naming the run, the series, the model and the exhaustion
// days, then one row per bucket: the history (KIND "history", DEVICES the
// observed value) and then the forecast (KIND "forecast", DEVICES the p50,
// P90), each with the flavor's capacity in that bucket ("-" when the answer
// has none, as for a team token).
std::string ForecastTable(const v1::Forecast& forecast);

// The same rows as CSV (RFC 4180, CRLF): start,kind,devices,p90_devices,
// capacity_devices, empty cells where the table prints "-".
std::string ForecastCsv(const v1::Forecast& forecast);

// The canonical proto3 JSON, every field printed, with whitespace.
std::string ForecastJson(const v1::Forecast& forecast);

}  // namespace fleetcap::exports

#pragma once
// How `fleetcapctl insights waste` prints a WasteReport (docs/insights.md,
// "Waste"): a table for people (figures to the hundredth, with a note when
// any was rounded), CSV with every figure exact, the API's proto3 JSON.

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/exports/report_format.h"

namespace fleetcap::exports {

std::string RenderWaste(const v1::WasteReport& report, ReportFormat format);

// The window and thresholds, the totals, the workloads (the most wasted
// first) and the efficiency of each team and of the fleet.
std::string WasteTable(const v1::WasteReport& report);

// One row per workload, per team and for the fleet (RFC 4180, CRLF): kind
// (workload, team, fleet), team, namespace, workload, held, wasted and
// unknown milli-device-seconds, the wasted cost exactly, runs,
// busy_but_light, efficiency and its signal; empty cells where a kind has
// no such figure.
std::string WasteCsv(const v1::WasteReport& report);

// The canonical proto3 JSON, every field printed, with whitespace.
std::string WasteJson(const v1::WasteReport& report);

}  // namespace fleetcap::exports

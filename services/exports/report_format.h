#pragma once
// How a report is printed by `fleetcapctl`: a table for people, the API's
// proto3 JSON for programs, CSV for spreadsheets.

#include <string>

#include "absl/status/statusor.h"

namespace fleetcap::exports {

enum class ReportFormat { kTable, kJson, kCsv };

// "table", "json" or "csv" in any case; anything else is INVALID_ARGUMENT naming --format.
absl::StatusOr<ReportFormat> ParseReportFormat(const std::string& text);

}  // namespace fleetcap::exports

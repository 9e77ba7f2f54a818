#pragma once
// The ways `fleetcapctl insights changes` writes a SpendChangeReport
// (docs/insights.md, "Why spend changed"): a table for people, the waterfall
// in words from the previous window's cost through each driver to the
// current one; the report's proto3 JSON; CSV with every amount exact.

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/exports/report_format.h"

namespace fleetcap::exports {

std::string RenderSpendChange(const v1::SpendChangeReport& report, ReportFormat format);

// The previous window's cost, each driver with what it means, its change,
// the running total after it and the workloads behind it, then the current
// window's cost; amounts to the hundredth, with a note when that rounds.
std::string SpendChangeTable(const v1::SpendChangeReport& report);

// The canonical proto3 JSON of the report, every field present.
std::string SpendChangeJson(const v1::SpendChangeReport& report);

// A header row, then `previous`, one `driver` row per driver each followed
// by its `contribution` rows, and `current`; money as exact decimals.
std::string SpendChangeCsv(const v1::SpendChangeReport& report);

}  // namespace fleetcap::exports

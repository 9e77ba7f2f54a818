#pragma once
// The ways `fleetcapctl chargeback` writes a ChargebackReport: a table for
// people, the report's proto3 JSON, CSV, and FOCUS 1.2 rows
// (focus_format.h). Pure functions of the request and the report; every
// amount is printed exactly from its micro-units (docs/chargeback.md).

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/chargeback.pb.h"

namespace fleetcap::exports {

enum class ChargebackFormat { kTable, kJson, kCsv, kFocus };

// What a chargeback report may be grouped by (GetChargebackRequest.group_by):
// the fields of ChargebackLine that name a thing. The API and fleetcapctl
// both check group_by against this one list.
inline constexpr const char* kChargebackGroupByFields[] = {"team",     "cluster", "namespace",
                                                           "workload", "model",   "line_kind"};

// "table", "json", "csv" or "focus"; anything else is INVALID_ARGUMENT
// naming --format.
absl::StatusOr<ChargebackFormat> ParseChargebackFormat(const std::string& text);

// `request` is what the report answers: its window and resolution say
// when each line's period ends (table title, FOCUS charge periods).
std::string RenderChargeback(const v1::GetChargebackRequest& request, const v1::ChargebackReport& report,
                             ChargebackFormat format);

// Aligned columns: the start of each line, the fields it is grouped by,
// device-hours held and used, efficiency, direct, idle, shared and total
// cost; then a TOTAL row.
std::string ChargebackTable(const v1::GetChargebackRequest& request, const v1::ChargebackReport& report);

// The canonical proto3 JSON of the report, every field present.
std::string ChargebackJson(const v1::ChargebackReport& report);

// A header row and one row per line with every field, money as exact
// decimals in the report's currency; no total row, so that columns sum.
std::string ChargebackCsv(const v1::ChargebackReport& report);

}  // namespace fleetcap::exports

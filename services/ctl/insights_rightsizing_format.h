#pragma once
// How `fleetcapctl insights rightsize` prints a RightsizingReport: a table
// for people (money to the hundredth, with the "rounded" note), CSV with
// every figure exact, the API's proto3 JSON for programs. Pure functions.

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/insights.pb.h"
#include "services/exports/report_format.h"

namespace fleetcap::ctl {

using exports::ParseReportFormat;
using exports::ReportFormat;

std::string RenderRightsizing(const v1::RightsizingReport& report, ReportFormat format);

// A line naming the lookback, the computation and the totals, then one row
// per recommendation, the largest saving first: its saving a month, who,
// what it holds and what it would hold, and the confidence.
std::string RightsizingTable(const v1::RightsizingReport& report);

// One record per recommendation (RFC 4180, CRLF), every field exact, the
// evidence included: money as exact decimals, devices as milli-devices.
std::string RightsizingCsv(const v1::RightsizingReport& report);

// The canonical proto3 JSON, every field printed, with whitespace.
std::string RightsizingJson(const v1::RightsizingReport& report);

}  // namespace fleetcap::ctl

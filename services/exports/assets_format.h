#pragma once
// The ways `fleetcapctl assets` writes what the Assets API answers
// (GetAssets, ListDeviceHolds; docs/fleet.md, "Assets"): a table for people,
// to the hundredth; the answer's proto3 JSON; CSV with every figure exact,
// which fleetcap-api also serves (GET /v1/fleet/assets/export) so that the
// dashboard's file and the CLI's are the same bytes. Pure functions.

#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/fleet.pb.h"
#include "services/exports/report_format.h"

namespace fleetcap::exports {

std::string RenderAssets(const v1::Assets& assets, ReportFormat format);

// Aligned columns: the group's key, devices, capacity, held, used and idle
// device-hours, held of capacity and idle cost, then a TOTAL row of every
// group (not only those shown) and notes: rounding, unknown figures, rows
// left out by the limit.
std::string AssetsTable(const v1::Assets& assets);

// A header row and one row per group, every field: device-hours and money
// as exact decimals (exact_decimal.h); used and idle cost empty where the
// API leaves them out (unknown, never 0). No total row, so columns sum.
std::string AssetsCsv(const v1::Assets& assets);

std::string RenderDeviceHolds(const v1::DeviceHolds& holds, ReportFormat format);

// The pods that held a device: pod, namespace, workload, team, devices held,
// the hold clipped to the window and its device-hours, then a TOTAL row.
std::string DeviceHoldsTable(const v1::DeviceHolds& holds);

std::string DeviceHoldsCsv(const v1::DeviceHolds& holds);

}  // namespace fleetcap::exports

#include "services/exports/focus_format.h"

#include <algorithm>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "proto_time.h"
#include "services/exports/csv.h"
#include "services/exports/exact_decimal.h"

namespace fleetcap::exports {
namespace {

constexpr char kDeviceHours[] = "Device-Hours";

// FOCUS date/times: extended ISO 8601, UTC, seconds and the Z designator.
std::string FocusTime(absl::Time t) { return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone()); }

// The end of the time bucket a line starts, never past the window.
absl::Time ChargePeriodEnd(absl::Time start, const v1::GetChargebackRequest& request) {
  const absl::Time window_end = FromProtoTimestamp(request.end());
  const absl::TimeZone utc = absl::UTCTimeZone();
  absl::Time end = window_end;
  switch (request.resolution()) {
    case v1::CHARGEBACK_RESOLUTION_HOUR:
      end = absl::FromCivil(absl::ToCivilHour(start, utc) + 1, utc);
      break;
    case v1::CHARGEBACK_RESOLUTION_DAY:
      end = absl::FromCivil(absl::ToCivilDay(start, utc) + 1, utc);
      break;
    case v1::CHARGEBACK_RESOLUTION_MONTH:
      end = absl::FromCivil(absl::ToCivilMonth(start, utc) + 1, utc);
      break;
    case v1::CHARGEBACK_RESOLUTION_NONE:  // one line for the whole window
    default:
      break;
  }
  return std::min(end, window_end);
}

std::string Description(const std::string& line_kind) {
  if (line_kind == "workload") return "Accelerator time held by the team's pods";
  if (line_kind == "idle") return "Accelerator time no pod was charged for";
  if (line_kind == "shared") return "Accelerator time held in shared namespaces";
  if (line_kind == "fixed") return "Share of fixed monthly accelerator costs";
  if (line_kind.empty()) return "Accelerator time";
  return "Accelerator time (" + line_kind + ")";
}

// The workload, qualified by the cluster and namespace the line has, so
// that the same workload name in two namespaces is two resources.
std::string ResourceId(const v1::ChargebackLine& line) {
  if (line.workload().empty()) return "";
  std::vector<std::string> parts;
  for (const auto* part : {&line.cluster(), &line.namespace_(), &line.workload()}) {
    if (!part->empty()) parts.push_back(*part);
  }
  return absl::StrJoin(parts, "/");
}

// The line's idle cost over its total, to 6 decimals rounded half up;
// empty (null) for a line that costs nothing.
std::string IdleShare(const v1::ChargebackLine& line) {
  if (line.total_cost_micro() <= 0 || line.idle_cost_micro() < 0) return "";
  const absl::int128 scaled = absl::int128(line.idle_cost_micro()) * 1000000;
  const auto millionths = static_cast<int64_t>((scaled + line.total_cost_micro() / 2) / line.total_cost_micro());
  return FixedPoint(millionths, DecimalsNeeded(millionths));
}

// What a FOCUS row is made from: one line, and what it is billed under.
struct FocusRow {
  const v1::ChargebackLine& line;
  const v1::GetChargebackRequest& request;
  const std::string& currency;
  const FocusAccount& account;

  absl::Time Start() const { return FromProtoTimestamp(line.start()); }
  absl::CivilMonth Month() const { return absl::ToCivilMonth(Start(), absl::UTCTimeZone()); }
  // No discounts or commitments: list, contracted, effective and billed
  // cost are all the line's total.
  std::string Cost() const { return Money(line.total_cost_micro()); }
  std::string HeldDeviceHours() const { return DeviceHours(line.held_milli_seconds()); }
};

struct FocusColumn {
  const char* name;
  std::string (*value)(const FocusRow& row);
};

// The FOCUS columns in alphabetical order, then fleetcap's own; each entry
// of docs/chargeback.md's column table is one of these.
const std::vector<FocusColumn>& FocusColumns() {
  static const auto* columns = new std::vector<FocusColumn>{
      {"BilledCost", [](const FocusRow& r) { return r.Cost(); }},
      {"BillingAccountId", [](const FocusRow& r) { return r.account.billing_account_id; }},
      {"BillingAccountName", [](const FocusRow& r) { return r.account.billing_account_name; }},
      {"BillingCurrency", [](const FocusRow& r) { return r.currency; }},
      {"BillingPeriodEnd",
       [](const FocusRow& r) { return FocusTime(absl::FromCivil(r.Month() + 1, absl::UTCTimeZone())); }},
      {"BillingPeriodStart",
       [](const FocusRow& r) { return FocusTime(absl::FromCivil(r.Month(), absl::UTCTimeZone())); }},
      {"ChargeCategory", [](const FocusRow&) { return std::string("Usage"); }},
      // Null: a line is never a correction of an invoiced period.
      {"ChargeClass", [](const FocusRow&) { return std::string(); }},
      {"ChargeDescription", [](const FocusRow& r) { return Description(r.line.line_kind()); }},
      {"ChargePeriodEnd", [](const FocusRow& r) { return FocusTime(ChargePeriodEnd(r.Start(), r.request)); }},
      {"ChargePeriodStart", [](const FocusRow& r) { return FocusTime(r.Start()); }},
      {"ConsumedQuantity", [](const FocusRow& r) { return r.HeldDeviceHours(); }},
      {"ConsumedUnit", [](const FocusRow&) { return std::string(kDeviceHours); }},
      {"ContractedCost", [](const FocusRow& r) { return r.Cost(); }},
      {"EffectiveCost", [](const FocusRow& r) { return r.Cost(); }},
      {"InvoiceIssuerName", [](const FocusRow& r) { return r.account.provider_name; }},
      {"ListCost", [](const FocusRow& r) { return r.Cost(); }},
      {"PricingQuantity", [](const FocusRow& r) { return r.HeldDeviceHours(); }},
      {"PricingUnit", [](const FocusRow&) { return std::string(kDeviceHours); }},
      {"ProviderName", [](const FocusRow& r) { return r.account.provider_name; }},
      {"PublisherName", [](const FocusRow& r) { return r.account.provider_name; }},
      {"ResourceId", [](const FocusRow& r) { return ResourceId(r.line); }},
      {"ServiceCategory", [](const FocusRow&) { return std::string("Compute"); }},
      {"ServiceName", [](const FocusRow&) { return std::string("Accelerators"); }},
      {"SubAccountId", [](const FocusRow& r) { return r.line.team(); }},
      {"SubAccountName", [](const FocusRow& r) { return r.line.team(); }},
      {"x_Cluster", [](const FocusRow& r) { return r.line.cluster(); }},
      {"x_Namespace", [](const FocusRow& r) { return r.line.namespace_(); }},
      {"x_Model", [](const FocusRow& r) { return r.line.model(); }},
      {"x_LineKind", [](const FocusRow& r) { return r.line.line_kind(); }},
      {"x_UsedDeviceHours", [](const FocusRow& r) { return DeviceHours(r.line.used_milli_seconds()); }},
      {"x_Efficiency", [](const FocusRow& r) { return absl::StrFormat("%.4f", r.line.efficiency()); }},
      {"x_NoTelemetry", [](const FocusRow& r) { return std::string(r.line.no_telemetry() ? "true" : "false"); }},
      {"x_DirectCost", [](const FocusRow& r) { return Money(r.line.direct_cost_micro()); }},
      {"x_IdleCost", [](const FocusRow& r) { return Money(r.line.idle_cost_micro()); }},
      {"x_SharedCost", [](const FocusRow& r) { return Money(r.line.shared_cost_micro()); }},
      {"x_IdleShare", [](const FocusRow& r) { return IdleShare(r.line); }},
  };
  return *columns;
}

}  // namespace

std::string ChargebackFocus(const v1::GetChargebackRequest& request, const v1::ChargebackReport& report,
                            const FocusAccount& account) {
  std::vector<std::string> cells;
  for (const auto& column : FocusColumns()) cells.push_back(column.name);
  std::string out = CsvRecord(cells);
  for (const auto& line : report.lines()) {
    const FocusRow row{line, request, report.currency(), account};
    cells.clear();
    for (const auto& column : FocusColumns()) cells.push_back(column.value(row));
    out += CsvRecord(cells);
  }
  return out;
}

}  // namespace fleetcap::exports

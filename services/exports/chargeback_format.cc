#include "services/exports/chargeback_format.h"

#include <algorithm>
#include <array>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/exports/csv.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/focus_format.h"
#include "services/exports/proto_json.h"
#include "services/exports/table.h"

namespace fleetcap::exports {
namespace {

// The fields a line can be grouped by, in the order columns show them.
struct GroupField {
  const char* name;
  const std::string& (v1::ChargebackLine::*value)() const;
};
constexpr std::array<GroupField, 6> kGroupFields = {{
    {"team", &v1::ChargebackLine::team},
    {"cluster", &v1::ChargebackLine::cluster},
    {"namespace", &v1::ChargebackLine::namespace_},
    {"workload", &v1::ChargebackLine::workload},
    {"model", &v1::ChargebackLine::model},
    {"line_kind", &v1::ChargebackLine::line_kind},
}};

// A field is a column when the request groups by it or any line has it, so
// that a field only some lines fill (fixed lines have no model) still shows.
bool Shown(const GroupField& field, const v1::GetChargebackRequest& request, const v1::ChargebackReport& report) {
  const auto& group_by = request.group_by();
  if (std::find(group_by.begin(), group_by.end(), field.name) != group_by.end()) return true;
  return std::any_of(report.lines().begin(), report.lines().end(),
                     [&](const v1::ChargebackLine& line) { return !(line.*field.value)().empty(); });
}

// Used over held device time, as a percentage with one decimal.
std::string Percent(double fraction) { return absl::StrFormat("%.1f%%", 100 * fraction); }

// Efficiency as a percentage; "-" when time was held and none of it had a
// usage reading: unknown, not 0%.
std::string EfficiencyCell(double efficiency, int64_t held_milli_seconds, int64_t observed_milli_seconds) {
  return held_milli_seconds > 0 && observed_milli_seconds == 0 ? "-" : Percent(efficiency);
}

// Money or device-hours in millionths, shown to the hundredth; whether any
// cell lost digits doing so (the table then says where the exact figures are).
class HundredthsColumn {
 public:
  void Add(int64_t millionths) {
    values_.push_back(millionths);
    rounded_ = rounded_ || FinerThanHundredths(millionths);
  }
  std::string Cell(size_t row) const { return Hundredths(values_[row]); }
  bool rounded() const { return rounded_; }

 private:
  std::vector<int64_t> values_;
  bool rounded_ = false;
};

constexpr char kNoTelemetryMarker[] = "*";
constexpr char kNoTelemetryNote[] = "* some of the line's time had no telemetry and was charged as held\n";
// Each cell, the TOTAL row's too, is its exact figure rounded, so a column
// of rounded cells may add up to a hundredth or so off its TOTAL.
constexpr char kRoundedNote[] = "figures rounded to the hundredth; --format csv, json or focus gives them exactly\n";

std::string Title(const v1::GetChargebackRequest& request, const v1::ChargebackReport& report) {
  return absl::StrCat("chargeback from ", FormatRfc3339(FromProtoTimestamp(request.start())), " to ",
                      FormatRfc3339(FromProtoTimestamp(request.end())), " in ", report.currency(), "\n");
}

}  // namespace

absl::StatusOr<ChargebackFormat> ParseChargebackFormat(const std::string& text) {
  const std::string f = absl::AsciiStrToLower(text);
  if (f == "table") return ChargebackFormat::kTable;
  if (f == "json") return ChargebackFormat::kJson;
  if (f == "csv") return ChargebackFormat::kCsv;
  if (f == "focus") return ChargebackFormat::kFocus;
  return absl::InvalidArgumentError(absl::StrCat("--format: \"", text, "\" is not table, json, csv or focus"));
}

std::string RenderChargeback(const v1::GetChargebackRequest& request, const v1::ChargebackReport& report,
                             ChargebackFormat format) {
  switch (format) {
    case ChargebackFormat::kTable:
      return ChargebackTable(request, report);
    case ChargebackFormat::kJson:
      return ChargebackJson(report);
    case ChargebackFormat::kCsv:
      return ChargebackCsv(report);
    case ChargebackFormat::kFocus:
      return ChargebackFocus(request, report);
  }
  return "";
}

std::string ChargebackTable(const v1::GetChargebackRequest& request, const v1::ChargebackReport& report) {
  if (report.lines().empty()) return Title(request, report) + "no chargeback lines in this window\n";
  std::vector<const GroupField*> shown;
  for (const auto& field : kGroupFields) {
    if (Shown(field, request, report)) shown.push_back(&field);
  }
  // The last row of each column is the TOTAL row.
  HundredthsColumn held, used, direct, idle, shared, total;
  int64_t held_sum = 0, used_sum = 0, observed_sum = 0, direct_sum = 0, idle_sum = 0, shared_sum = 0;
  for (const auto& line : report.lines()) {
    held.Add(DeviceHourMillionths(line.held_milli_seconds()));
    used.Add(DeviceHourMillionths(line.used_milli_seconds()));
    direct.Add(line.direct_cost_micro());
    idle.Add(line.idle_cost_micro());
    shared.Add(line.shared_cost_micro());
    total.Add(line.total_cost_micro());
    held_sum += line.held_milli_seconds();
    used_sum += line.used_milli_seconds();
    observed_sum += line.observed_milli_seconds();
    direct_sum += line.direct_cost_micro();
    idle_sum += line.idle_cost_micro();
    shared_sum += line.shared_cost_micro();
  }
  held.Add(DeviceHourMillionths(held_sum));
  used.Add(DeviceHourMillionths(used_sum));
  direct.Add(direct_sum);
  idle.Add(idle_sum);
  shared.Add(shared_sum);
  total.Add(report.total_cost_micro());

  std::vector<std::string> header = {"START"};
  for (const auto* field : shown) header.push_back(absl::AsciiStrToUpper(field->name));
  for (const char* name : {"HELD_DEVICE_H", "USED_DEVICE_H", "EFFICIENCY", "DIRECT", "IDLE", "SHARED", "TOTAL"}) {
    header.push_back(name);
  }
  // Lines charged as held for want of telemetry get a marker after their
  // total and a note under the table; without any, the table is unchanged.
  const bool marked = std::any_of(report.lines().begin(), report.lines().end(),
                                  [](const v1::ChargebackLine& line) { return line.no_telemetry(); });
  if (marked) header.push_back("");
  Table table(header);
  auto figures = [&](size_t row, const std::string& efficiency, std::vector<std::string> cells) {
    cells.insert(cells.end(), {held.Cell(row), used.Cell(row), efficiency, direct.Cell(row), idle.Cell(row),
                               shared.Cell(row), total.Cell(row)});
    return cells;
  };
  for (int i = 0; i < report.lines_size(); ++i) {
    const auto& line = report.lines(i);
    std::vector<std::string> cells = {FormatRfc3339(FromProtoTimestamp(line.start()))};
    for (const auto* field : shown) cells.push_back((line.*field->value)());
    cells = figures(i, EfficiencyCell(line.efficiency(), line.held_milli_seconds(), line.observed_milli_seconds()),
                    std::move(cells));
    if (line.no_telemetry()) cells.push_back(kNoTelemetryMarker);
    table.AddRow(std::move(cells));
  }
  const double total_efficiency = observed_sum > 0 ? static_cast<double>(used_sum) / observed_sum : 0;
  const std::string total_cell = EfficiencyCell(total_efficiency, held_sum, observed_sum);
  std::vector<std::string> total_cells = {"TOTAL"};
  total_cells.resize(1 + shown.size());
  table.AddRow(figures(report.lines_size(), total_cell, std::move(total_cells)));
  const bool rounded =
      held.rounded() || used.rounded() || direct.rounded() || idle.rounded() || shared.rounded() || total.rounded();
  return absl::StrCat(Title(request, report), table.Render(), marked ? kNoTelemetryNote : "",
                      rounded ? kRoundedNote : "");
}

std::string ChargebackJson(const v1::ChargebackReport& report) { return ProtoJson(report); }

std::string ChargebackCsv(const v1::ChargebackReport& report) {
  std::string out = CsvRecord({"start", "team", "cluster", "namespace", "workload", "model", "line_kind",
                               "held_device_hours", "used_device_hours", "efficiency", "no_telemetry", "direct_cost",
                               "idle_cost", "shared_cost", "total_cost", "currency"});
  for (const auto& line : report.lines()) {
    out += CsvRecord({FormatRfc3339(FromProtoTimestamp(line.start())), line.team(), line.cluster(), line.namespace_(),
                      line.workload(), line.model(), line.line_kind(), DeviceHours(line.held_milli_seconds()),
                      DeviceHours(line.used_milli_seconds()), absl::StrFormat("%.4f", line.efficiency()),
                      line.no_telemetry() ? "true" : "false", Money(line.direct_cost_micro()),
                      Money(line.idle_cost_micro()), Money(line.shared_cost_micro()), Money(line.total_cost_micro()),
                      report.currency()});
  }
  return out;
}

}  // namespace fleetcap::exports

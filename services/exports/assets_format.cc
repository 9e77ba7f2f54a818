#include "services/exports/assets_format.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/exports/csv.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/proto_json.h"
#include "services/exports/table.h"

namespace fleetcap::exports {
namespace {

// The fields of a row's key, in the order columns show them.
struct AssetKeyField {
  const char* name;
  const std::string& (v1::AssetRow::*value)() const;
};
constexpr std::array<AssetKeyField, 4> kAssetKeyFields = {{
    {"cluster", &v1::AssetRow::cluster},
    {"node", &v1::AssetRow::node},
    {"device", &v1::AssetRow::device},
    {"model", &v1::AssetRow::model},
}};

// A key field is a column when the answer is grouped by it or any row has it
// (a node row names its cluster and model too).
bool AssetKeyShown(const AssetKeyField& field, const v1::Assets& assets) {
  if (assets.group_by() == field.name) return true;
  return std::any_of(assets.rows().begin(), assets.rows().end(),
                     [&](const v1::AssetRow& row) { return !(row.*field.value)().empty(); });
}

constexpr char kAssetsUnknown[] = "-";

// Figures in millionths shown to the hundredth, remembering whether any lost
// digits doing so; an unknown figure is "-", remembered too.
class AssetCells {
 public:
  std::string Hundredth(int64_t millionths) {
    rounded_ = rounded_ || FinerThanHundredths(millionths);
    return Hundredths(millionths);
  }
  std::string Known(bool present, int64_t millionths) {
    if (present) return Hundredth(millionths);
    unknown_ = true;
    return kAssetsUnknown;
  }
  bool rounded() const { return rounded_; }
  bool unknown() const { return unknown_; }

 private:
  bool rounded_ = false;
  bool unknown_ = false;
};

// Held of capacity as a percentage with one decimal, exactly rounded; "-"
// without capacity.
std::string HeldOfCapacity(int64_t held, int64_t capacity) {
  if (capacity <= 0) return kAssetsUnknown;
  const absl::int128 permille = (absl::int128(held) * 1000 + capacity / 2) / capacity;
  return absl::StrCat(static_cast<int64_t>(permille / 10), ".", static_cast<int64_t>(permille % 10), "%");
}

// The figures of a row (or the totals) after its key cells.
std::vector<std::string> AssetFigureCells(const v1::AssetRow& row, AssetCells& cells, std::vector<std::string> out) {
  out.insert(out.end(),
             {std::to_string(row.devices()), cells.Hundredth(DeviceHourMillionths(row.capacity_milli_seconds())),
              cells.Hundredth(DeviceHourMillionths(row.held_milli_seconds())),
              cells.Known(row.has_used_milli_seconds(), DeviceHourMillionths(row.used_milli_seconds())),
              cells.Hundredth(DeviceHourMillionths(row.idle_milli_seconds())),
              HeldOfCapacity(row.held_milli_seconds(), row.capacity_milli_seconds()),
              cells.Known(row.has_idle_cost_micro(), row.idle_cost_micro())});
  return out;
}

constexpr char kAssetsUnknownNote[] =
    "- unknown, not 0: the chargeback has not computed the group's model and cluster in the window yet\n";

std::string AssetWindow(const google::protobuf::Timestamp& start, const google::protobuf::Timestamp& end) {
  return absl::StrCat("from ", FormatRfc3339(FromProtoTimestamp(start)), " to ",
                      FormatRfc3339(FromProtoTimestamp(end)));
}

std::string AssetsLimitNote(const v1::Assets& assets) {
  if (assets.groups() <= assets.rows_size()) return "";
  return absl::StrCat(assets.rows_size(), " of ", assets.groups(),
                      " groups shown, the most idle first (--limit shows up to 1000); TOTAL is of all of them\n");
}

}  // namespace

std::string RenderAssets(const v1::Assets& assets, ReportFormat format) {
  switch (format) {
    case ReportFormat::kTable:
      return AssetsTable(assets);
    case ReportFormat::kJson:
      return ProtoJson(assets);
    case ReportFormat::kCsv:
      return AssetsCsv(assets);
  }
  return "";
}

std::string AssetsTable(const v1::Assets& assets) {
  const std::string title = absl::StrCat("assets by ", assets.group_by(), " ",
                                         AssetWindow(assets.start(), assets.end()), " in ", assets.currency(), "\n");
  if (assets.rows().empty()) return title + "no devices in service in this window\n";
  std::vector<const AssetKeyField*> shown;
  for (const auto& field : kAssetKeyFields) {
    if (AssetKeyShown(field, assets)) shown.push_back(&field);
  }
  std::vector<std::string> header;
  for (const auto* field : shown) header.push_back(absl::AsciiStrToUpper(field->name));
  for (const char* name :
       {"DEVICES", "CAPACITY_DEVICE_H", "HELD_DEVICE_H", "USED_DEVICE_H", "IDLE_DEVICE_H", "HELD%", "IDLE_COST"}) {
    header.push_back(name);
  }
  Table table(header);
  AssetCells cells;
  for (const auto& row : assets.rows()) {
    std::vector<std::string> key;
    for (const auto* field : shown) key.push_back((row.*field->value)());
    table.AddRow(AssetFigureCells(row, cells, std::move(key)));
  }
  std::vector<std::string> total_key = {"TOTAL"};
  total_key.resize(shown.size());
  table.AddRow(AssetFigureCells(assets.totals(), cells, std::move(total_key)));
  return absl::StrCat(title, table.Render(), AssetsLimitNote(assets), cells.rounded() ? kRoundedToHundredthsNote : "",
                      cells.unknown() ? kAssetsUnknownNote : "");
}

std::string AssetsCsv(const v1::Assets& assets) {
  std::string out =
      CsvRecord({"model", "cluster", "node", "device", "devices", "capacity_device_hours", "held_device_hours",
                 "used_device_hours", "observed_device_hours", "idle_device_hours", "idle_cost", "currency"});
  for (const auto& row : assets.rows()) {
    out += CsvRecord({row.model(), row.cluster(), row.node(), row.device(), std::to_string(row.devices()),
                      DeviceHours(row.capacity_milli_seconds()), DeviceHours(row.held_milli_seconds()),
                      row.has_used_milli_seconds() ? DeviceHours(row.used_milli_seconds()) : "",
                      row.has_observed_milli_seconds() ? DeviceHours(row.observed_milli_seconds()) : "",
                      DeviceHours(row.idle_milli_seconds()),
                      row.has_idle_cost_micro() ? Money(row.idle_cost_micro()) : "", assets.currency()});
  }
  return out;
}

std::string RenderDeviceHolds(const v1::DeviceHolds& holds, ReportFormat format) {
  switch (format) {
    case ReportFormat::kTable:
      return DeviceHoldsTable(holds);
    case ReportFormat::kJson:
      return ProtoJson(holds);
    case ReportFormat::kCsv:
      return DeviceHoldsCsv(holds);
  }
  return "";
}

std::string DeviceHoldsTable(const v1::DeviceHolds& holds) {
  const std::string title =
      absl::StrCat("pods that held device ", holds.device(), " in cluster ", holds.cluster(), "\n");
  if (holds.holds().empty()) return title + "no pod held it in this window\n";
  Table table({"POD", "NAMESPACE", "WORKLOAD", "TEAM", "DEVICES", "FROM", "TO", "HELD_DEVICE_H"});
  AssetCells cells;
  int64_t held_sum = 0;
  for (const auto& hold : holds.holds()) {
    table.AddRow({hold.pod(), hold.namespace_(), hold.workload(), hold.team(), FixedPoint(hold.milli() * 1000, 3),
                  FormatRfc3339(FromProtoTimestamp(hold.held_from())),
                  FormatRfc3339(FromProtoTimestamp(hold.held_to())),
                  cells.Hundredth(DeviceHourMillionths(hold.held_milli_seconds()))});
    held_sum += hold.held_milli_seconds();
  }
  table.AddRow({"TOTAL", "", "", "", "", "", "", cells.Hundredth(DeviceHourMillionths(held_sum))});
  return absl::StrCat(title, table.Render(),
                      holds.truncated() ? "more holds than these in the window: give a shorter one\n" : "",
                      cells.rounded() ? kRoundedToHundredthsNote : "");
}

std::string DeviceHoldsCsv(const v1::DeviceHolds& holds) {
  std::string out = CsvRecord({"cluster", "device", "pod", "namespace", "workload", "team", "devices", "held_from",
                               "held_to", "held_seconds", "held_device_hours"});
  for (const auto& hold : holds.holds()) {
    out += CsvRecord({holds.cluster(), holds.device(), hold.pod(), hold.namespace_(), hold.workload(), hold.team(),
                      FixedPoint(hold.milli() * 1000, 3), FormatRfc3339(FromProtoTimestamp(hold.held_from())),
                      FormatRfc3339(FromProtoTimestamp(hold.held_to())), std::to_string(hold.held_seconds()),
                      DeviceHours(hold.held_milli_seconds())});
  }
  return out;
}

}  // namespace fleetcap::exports

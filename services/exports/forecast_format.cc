#include "services/exports/forecast_format.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/time_util.h"
#include "proto_time.h"
#include "services/exports/csv.h"
#include "services/exports/proto_json.h"
#include "services/exports/table.h"

namespace fleetcap::exports {
namespace {

// Milli-devices as devices with three decimals, exactly (no floating point).
std::string Devices(int64_t milli) {
  const char* sign = milli < 0 ? "-" : "";
  const uint64_t abs = milli < 0 ? 0 - static_cast<uint64_t>(milli) : static_cast<uint64_t>(milli);
  return absl::StrFormat("%s%d.%03d", sign, abs / 1000, abs % 1000);
}

std::string Time(const google::protobuf::Timestamp& t) { return FormatRfc3339(FromProtoTimestamp(t)); }

// One printed row; "" for an absent cell.
struct Row {
  std::string start, kind, devices, p90, capacity;
};

std::vector<Row> Rows(const v1::Forecast& f) {
  std::map<int64_t, int64_t> capacity;  // by bucket start (seconds)
  for (const auto& c : f.capacity_history()) capacity[c.start().seconds()] = c.milli();
  for (const auto& c : f.capacity_forecast()) capacity[c.start().seconds()] = c.milli();
  auto capacity_at = [&](const google::protobuf::Timestamp& t) {
    auto it = capacity.find(t.seconds());
    return it == capacity.end() ? std::string() : Devices(it->second);
  };
  std::vector<Row> rows;
  for (const auto& h : f.history())
    rows.push_back({Time(h.start()), "history", Devices(h.milli()), "", capacity_at(h.start())});
  for (const auto& b : f.forecast()) {
    rows.push_back(
        {Time(b.start()), "forecast", Devices(b.p50_milli()), Devices(b.p90_milli()), capacity_at(b.start())});
  }
  return rows;
}

std::string Day(const v1::Exhaustion& e, bool p90) {
  if (p90 ? !e.has_p90_day() : !e.has_p50_day()) return "not within the horizon";
  return FormatRfc3339(FromProtoTimestamp(p90 ? e.p90_day() : e.p50_day())).substr(0, 10);
}

std::string Dash(const std::string& cell) { return cell.empty() ? "-" : cell; }

}  // namespace

std::string RenderForecast(const v1::Forecast& forecast, ReportFormat format) {
  switch (format) {
    case ReportFormat::kTable:
      return ForecastTable(forecast);
    case ReportFormat::kJson:
      return ForecastJson(forecast);
    case ReportFormat::kCsv:
      return ForecastCsv(forecast);
  }
  return "";
}

std::string ForecastTable(const v1::Forecast& f) {
  std::string out = absl::StrCat("forecast run ", f.run_id(), " computed ", Time(f.computed_at()), "\n");
  absl::StrAppend(&out, "flavor ", f.flavor(), ", ", f.team().empty() ? "all teams" : absl::StrCat("team ", f.team()),
                  ", ", f.what(), ", ", f.horizon_hours(), " hours ahead by ",
                  f.resolution() == v1::DAY ? "day (each day's peak hour)" : "hour", "\n");
  absl::StrAppend(&out, "model ", f.model());
  if (!f.fit().empty()) {
    std::vector<std::string> parts;
    for (const v1::FitParameter& p : f.fit()) parts.push_back(absl::StrFormat("%s=%.6g", p.name(), p.value()));
    absl::StrAppend(&out, " (", absl::StrJoin(parts, " "), ")");
  }
  absl::StrAppend(&out, "\n");
  if (!f.fallback_reason().empty()) absl::StrAppend(&out, "fallback: ", f.fallback_reason(), "\n");
  if (f.has_exhaustion()) {
    absl::StrAppend(&out, "capacity exhausted: p50 ", Day(f.exhaustion(), false), ", p90 ", Day(f.exhaustion(), true),
                    "\n");
  }
  Table table({"START", "KIND", "DEVICES", "P90", "CAPACITY"});
  for (const Row& r : Rows(f)) table.AddRow({r.start, r.kind, r.devices, Dash(r.p90), Dash(r.capacity)});
  return out + table.Render();
}

std::string ForecastCsv(const v1::Forecast& f) {
  std::string out = CsvRecord({"start", "kind", "devices", "p90_devices", "capacity_devices"});
  for (const Row& r : Rows(f)) out += CsvRecord({r.start, r.kind, r.devices, r.p90, r.capacity});
  return out;
}

std::string ForecastJson(const v1::Forecast& f) { return ProtoJson(f); }

}  // namespace fleetcap::exports

#include "services/exports/waste_format.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/time_util.h"
#include "google/protobuf/util/json_util.h"
#include "proto_time.h"
#include "services/exports/csv.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/table.h"

namespace fleetcap::exports {
namespace {

// Device-hours or money to the hundredth, noting whether digits were dropped.
class Rounding {
 public:
  std::string Money(int64_t micro) {
    rounded_ = rounded_ || FinerThanHundredths(micro);
    return Hundredths(micro);
  }
  std::string Hours(int64_t milli_seconds) {
    const int64_t millionths = DeviceHourMillionths(milli_seconds);
    rounded_ = rounded_ || FinerThanHundredths(millionths) || millionths * 36 != milli_seconds * 10;
    return Hundredths(millionths);
  }
  bool rounded() const { return rounded_; }

 private:
  bool rounded_ = false;
};

std::string Shown(const std::string& s) { return s.empty() ? "-" : s; }

std::string Score(const v1::EfficiencyScore& e) {
  return e.observed_milli_seconds() == 0 ? "-" : absl::StrFormat("%.1f%%", 100 * e.score());
}

}  // namespace

std::string RenderWaste(const v1::WasteReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::kTable:
      return WasteTable(report);
    case ReportFormat::kJson:
      return WasteJson(report);
    case ReportFormat::kCsv:
      return WasteCsv(report);
  }
  return "";
}

std::string WasteTable(const v1::WasteReport& r) {
  Rounding round;
  std::string out = absl::StrCat("waste [", FormatRfc3339(FromProtoTimestamp(r.start())), ", ",
                                 FormatRfc3339(FromProtoTimestamp(r.end())), "): devices held below ",
                                 absl::StrFormat("%.2f%%", 100 * r.idle_below()), " activity for at least ",
                                 absl::FormatDuration(absl::Seconds(r.idle_for_seconds())), "\n");
  absl::StrAppend(&out, "wasted ", round.Money(r.wasted_cost_micro()), " ", r.currency(), " over ",
                  round.Hours(r.wasted_milli_seconds()), " device-hours; ", round.Hours(r.unknown_milli_seconds()),
                  " device-hours held without telemetry (unknown, never waste)\n\n");
  Table workloads({"TEAM", "NAMESPACE", "WORKLOAD", "HELD_DH", "WASTED_DH", "UNKNOWN_DH",
                   absl::StrCat("WASTED_", r.currency()), "RUNS", "FLAG"});
  for (const v1::WorkloadWaste& w : r.workloads()) {
    workloads.AddRow({Shown(w.team()), Shown(w.namespace_()), Shown(w.workload()), round.Hours(w.held_milli_seconds()),
                      round.Hours(w.wasted_milli_seconds()), round.Hours(w.unknown_milli_seconds()),
                      round.Money(w.wasted_cost_micro()), absl::StrCat(w.run_count()),
                      w.busy_but_light() ? "busy_but_light" : "-"});
  }
  absl::StrAppend(&out, workloads.Render());
  if (r.workload_count() > r.workloads_size()) {
    absl::StrAppend(&out, r.workloads_size(), " of ", r.workload_count(), " workloads shown (--limit)\n");
  }
  Table efficiency({"TEAM", "EFFICIENCY", "SIGNAL", "HELD_DH", "OBSERVED_DH", "ACTIVE_DH"});
  for (const v1::EfficiencyScore& e : r.efficiency()) {
    efficiency.AddRow({e.team().empty() ? "(fleet)" : e.team(), Score(e), Shown(e.signal()),
                       round.Hours(e.held_milli_seconds()), round.Hours(e.observed_milli_seconds()),
                       round.Hours(e.active_milli_seconds())});
  }
  absl::StrAppend(&out, "\n", efficiency.Render());
  if (round.rounded()) absl::StrAppend(&out, kRoundedToHundredthsNote);
  return out;
}

std::string WasteCsv(const v1::WasteReport& r) {
  std::string out =
      "kind,team,namespace,workload,held_milli_seconds,wasted_milli_seconds,unknown_milli_seconds,wasted_cost,"
      "runs,busy_but_light,efficiency,signal\r\n";
  auto row = [&](std::vector<std::string> cells) {
    for (size_t i = 0; i < cells.size(); ++i) absl::StrAppend(&out, i ? "," : "", CsvField(cells[i]));
    out += "\r\n";
  };
  for (const v1::WorkloadWaste& w : r.workloads()) {
    row({"workload", w.team(), w.namespace_(), w.workload(), absl::StrCat(w.held_milli_seconds()),
         absl::StrCat(w.wasted_milli_seconds()), absl::StrCat(w.unknown_milli_seconds()), Money(w.wasted_cost_micro()),
         absl::StrCat(w.run_count()), w.busy_but_light() ? "true" : "false", "", ""});
  }
  std::map<std::string, const v1::TeamWaste*> teams;
  for (const v1::TeamWaste& t : r.teams()) teams[t.team()] = &t;
  for (const v1::EfficiencyScore& e : r.efficiency()) {
    const bool fleet = e.team().empty();
    const v1::TeamWaste* t = fleet ? nullptr : teams[e.team()];
    const int64_t wasted = fleet ? r.wasted_milli_seconds() : t ? t->wasted_milli_seconds() : 0;
    const int64_t unknown = fleet ? r.unknown_milli_seconds() : t ? t->unknown_milli_seconds() : 0;
    const int64_t cost = fleet ? r.wasted_cost_micro() : t ? t->wasted_cost_micro() : 0;
    row({fleet ? "fleet" : "team", e.team(), "", "", absl::StrCat(e.held_milli_seconds()), absl::StrCat(wasted),
         absl::StrCat(unknown), Money(cost), "", "",
         e.observed_milli_seconds() == 0 ? "" : absl::StrFormat("%.6f", e.score()), e.signal()});
  }
  return out;
}

std::string WasteJson(const v1::WasteReport& r) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.add_whitespace = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(r, &json, options);
  return json;
}

}  // namespace fleetcap::exports

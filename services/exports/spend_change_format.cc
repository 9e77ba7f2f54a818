#include "services/exports/spend_change_format.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/time_util.h"
#include "google/protobuf/util/json_util.h"
#include "proto_time.h"
#include "services/exports/csv.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/table.h"

namespace fleetcap::exports {
namespace {

// What each driver says, in words (docs/insights.md, "Drivers").
std::string Meaning(const std::string& driver) {
  static const auto* meanings = new std::map<std::string, std::string>{
      {"started", "workloads that started"},          {"ended", "workloads that ended"},
      {"held_time", "more or less device time held"}, {"model_mix", "device time moved between models"},
      {"price", "prices per device-hour changed"},    {"idle_share", "idle cost received and kept"},
      {"shared_and_fixed", "shared and fixed costs"},
  };
  auto it = meanings->find(driver);
  return it == meanings->end() ? driver : it->second;
}

std::string Time(const google::protobuf::Timestamp& t) { return FormatRfc3339(FromProtoTimestamp(t)); }

// A change with its sign: "+1.50", "-0.25", "0.00".
std::string Signed(const std::string& amount, int64_t micro) { return micro > 0 ? "+" + amount : amount; }

std::string Workload(const v1::SpendContribution& c) {
  auto dash = [](const std::string& s) { return s.empty() ? std::string("-") : s; };
  return absl::StrCat(dash(c.team()), "/", dash(c.namespace_()), "/", dash(c.workload()), " ", dash(c.model()));
}

}  // namespace

std::string RenderSpendChange(const v1::SpendChangeReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::kJson:
      return SpendChangeJson(report);
    case ReportFormat::kCsv:
      return SpendChangeCsv(report);
    case ReportFormat::kTable:
      break;
  }
  return SpendChangeTable(report);
}

std::string SpendChangeTable(const v1::SpendChangeReport& report) {
  bool rounded = false;
  auto shown = [&](int64_t micro) {
    rounded = rounded || FinerThanHundredths(micro);
    return Hundredths(micro);
  };
  Table table({"STEP", "CHANGE", "RUNNING"});
  table.AddRow({"previous window", "", shown(report.previous_cost_micro())});
  int64_t running = report.previous_cost_micro();
  for (const v1::SpendDriver& d : report.drivers()) {
    running += d.change_micro();
    table.AddRow({absl::StrCat("+ ", d.name(), ": ", Meaning(d.name())),
                  Signed(shown(d.change_micro()), d.change_micro()), shown(running)});
    for (const v1::SpendContribution& c : d.top()) {
      table.AddRow({"    " + Workload(c), Signed(shown(c.change_micro()), c.change_micro()), ""});
    }
  }
  table.AddRow({"= current window", Signed(shown(report.change_micro()), report.change_micro()),
                shown(report.current_cost_micro())});
  return absl::StrCat("Why spend changed, ", Time(report.previous_start()), " to ", Time(report.start()), " -> ",
                      Time(report.start()), " to ", Time(report.end()), " (", report.currency(), ")\n", table.Render(),
                      rounded ? kRoundedToHundredthsNote : "");
}

std::string SpendChangeJson(const v1::SpendChangeReport& report) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.add_whitespace = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(report, &json, options);
  return json;
}

std::string SpendChangeCsv(const v1::SpendChangeReport& report) {
  std::string out = CsvRecord({"row", "driver", "team", "namespace", "workload", "model", "amount", "currency"});
  const std::string& currency = report.currency();
  out += CsvRecord({"previous", "", "", "", "", "", Money(report.previous_cost_micro()), currency});
  for (const v1::SpendDriver& d : report.drivers()) {
    out += CsvRecord({"driver", d.name(), "", "", "", "", Money(d.change_micro()), currency});
    for (const v1::SpendContribution& c : d.top()) {
      out += CsvRecord({"contribution", d.name(), c.team(), c.namespace_(), c.workload(), c.model(),
                        Money(c.change_micro()), currency});
    }
  }
  out += CsvRecord({"current", "", "", "", "", "", Money(report.current_cost_micro()), currency});
  return out;
}

}  // namespace fleetcap::exports

#include "services/ctl/insights_rightsizing_format.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/time_util.h"
#include "google/protobuf/util/json_util.h"
#include "proto_time.h"
#include "services/exports/csv.h"
#include "services/exports/exact_decimal.h"
#include "services/exports/table.h"

namespace fleetcap::ctl {
namespace {

using exports::FinerThanHundredths;
using exports::Hundredths;

std::string Time(const google::protobuf::Timestamp& t) { return FormatRfc3339(FromProtoTimestamp(t)); }

std::string Title(const v1::RightsizingReport& r) {
  if (!r.has_computed_at()) return "no rightsizing computed yet for what was asked\n";
  return absl::StrCat("rightsizing over ", Time(r.start()), " to ", Time(r.end()), ", computed ", Time(r.computed_at()),
                      ", in ", r.currency(), ": ", r.recommendation_count(), " recommendations, up to ",
                      Hundredths(r.savings_micro_per_month()), " a month (the largest of each workload's)\n");
}

}  // namespace

std::string RenderRightsizing(const v1::RightsizingReport& report, ReportFormat format) {
  switch (format) {
    case ReportFormat::kJson:
      return RightsizingJson(report);
    case ReportFormat::kCsv:
      return RightsizingCsv(report);
    case ReportFormat::kTable:
      break;
  }
  return RightsizingTable(report);
}

std::string RightsizingTable(const v1::RightsizingReport& report) {
  std::string out = Title(report);
  if (report.recommendations().empty()) return out + "nothing to resize\n";
  exports::Table table(
      {"SAVING_A_MONTH", "TEAM", "NAMESPACE", "WORKLOAD", "CLUSTER", "KIND", "CURRENT", "PROPOSED", "CONFIDENCE"});
  bool rounded = FinerThanHundredths(report.savings_micro_per_month());
  for (const v1::RightsizingRecommendation& r : report.recommendations()) {
    rounded = rounded || FinerThanHundredths(r.savings_micro_per_month());
    table.AddRow({Hundredths(r.savings_micro_per_month()), r.team(), r.namespace_(), r.workload(), r.cluster(),
                  r.kind(), r.current(), r.proposed(), r.confidence()});
  }
  out += table.Render();
  if (report.recommendations_size() < report.recommendation_count()) {
    absl::StrAppend(&out, "the first ", report.recommendations_size(), " of ", report.recommendation_count(),
                    "; --limit shows more\n");
  }
  return rounded ? out + exports::kRoundedToHundredthsNote : out;
}

std::string RightsizingCsv(const v1::RightsizingReport& report) {
  std::string out =
      exports::CsvRecord({"cluster", "team", "namespace", "workload", "model", "kind", "current", "proposed",
                          "current_milli", "proposed_milli", "savings_per_month", "currency", "observed_minutes",
                          "confidence", "p95_active_devices", "p95_activity", "p99_memory_bytes", "evidence"});
  for (const v1::RightsizingRecommendation& r : report.recommendations()) {
    out += exports::CsvRecord(
        {r.cluster(), r.team(), r.namespace_(), r.workload(), r.model(), r.kind(), r.current(), r.proposed(),
         absl::StrCat(r.current_milli()), absl::StrCat(r.proposed_milli()), exports::Money(r.savings_micro_per_month()),
         report.currency(), absl::StrCat(r.observed_minutes()), r.confidence(),
         absl::StrFormat("%.6f", r.p95_active_devices()), absl::StrFormat("%.6f", r.p95_activity()),
         absl::StrCat(r.p99_memory_bytes()), r.evidence()});
  }
  return out;
}

std::string RightsizingJson(const v1::RightsizingReport& report) {
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.add_whitespace = true;
  std::string json;
  (void)google::protobuf::util::MessageToJsonString(report, &json, options);
  return json;
}

}  // namespace fleetcap::ctl

#include "services/exports/report_format.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace fleetcap::exports {

absl::StatusOr<ReportFormat> ParseReportFormat(const std::string& text) {
  const std::string f = absl::AsciiStrToLower(text);
  if (f == "table") return ReportFormat::kTable;
  if (f == "json") return ReportFormat::kJson;
  if (f == "csv") return ReportFormat::kCsv;
  return absl::InvalidArgumentError(absl::StrCat("--format: \"", text, "\" is not table, json or csv"));
}

}  // namespace fleetcap::exports

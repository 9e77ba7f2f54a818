#include "services/exports/csv.h"

#include "absl/strings/str_join.h"

namespace fleetcap::exports {

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string CsvRecord(const std::vector<std::string>& fields) {
  return absl::StrJoin(fields, ",", [](std::string* out, const std::string& field) { out->append(CsvField(field)); }) +
         "\r\n";
}

}  // namespace fleetcap::exports

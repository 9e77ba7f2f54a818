#include "tests/telemetry/duty_cycle_csv.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace fleetcap::testing {
namespace {

constexpr size_t kProblemsKept = 10;

void Skip(DutyCycleData& data, const std::string& source, int64_t line, absl::string_view why) {
  ++data.bad_rows;
  if (data.problems.size() < kProblemsKept) data.problems.push_back(absl::StrCat(source, ":", line, ": ", why));
}

}  // namespace

absl::StatusOr<DutyCycleData> ParseDutyCycleCsv(absl::string_view text, const std::string& source) {
  DutyCycleData data;
  std::map<std::string, std::vector<std::pair<double, double>>> by_container;  // container -> (timestamp, value)
  int64_t line_no = 0;
  bool header_seen = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    line = absl::StripTrailingAsciiWhitespace(line);  // also a CRLF file's \r
    if (line.empty()) continue;
    if (!header_seen) {
      if (line != "value,timestamp_anon,container_ip") {
        return absl::InvalidArgumentError(
            absl::StrCat(source, ":", line_no, ": expected the header \"value,timestamp_anon,container_ip\", got \"",
                         line.substr(0, 80), "\""));
      }
      header_seen = true;
      continue;
    }
    std::vector<absl::string_view> cells = absl::StrSplit(line, ',');
    if (cells.size() != 3) {
      Skip(data, source, line_no, absl::StrCat(cells.size(), " cells, expected 3"));
      continue;
    }
    double value = 0, timestamp = 0;
    if (!absl::SimpleAtod(cells[0], &value) || !std::isfinite(value) || value < 0 || value > 100) {
      Skip(data, source, line_no, absl::StrCat("value \"", cells[0].substr(0, 40), "\" is not a percentage 0..100"));
      continue;
    }
    if (!absl::SimpleAtod(cells[1], &timestamp) || !std::isfinite(timestamp)) {
      Skip(data, source, line_no, absl::StrCat("timestamp_anon \"", cells[1].substr(0, 40), "\" is not a number"));
      continue;
    }
    if (cells[2].empty()) {
      Skip(data, source, line_no, "container_ip is empty");
      continue;
    }
    by_container[std::string(cells[2])].emplace_back(timestamp, value);
    ++data.rows;
  }
  if (!header_seen) return absl::InvalidArgumentError(absl::StrCat(source, ": empty, no header"));
  if (by_container.empty()) return absl::InvalidArgumentError(absl::StrCat(source, ": no usable row"));
  for (auto& [container, readings] : by_container) {
    // Stable: readings of one timestamp keep their file order.
    std::stable_sort(readings.begin(), readings.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    DutyCycleSeries s{container, {}};
    s.values.reserve(readings.size());
    for (const auto& r : readings) s.values.push_back(r.second);
    data.series.push_back(std::move(s));
  }
  return data;
}

}  // namespace fleetcap::testing

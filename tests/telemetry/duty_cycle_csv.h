#pragma once
// The published per-pod GPU duty cycle (genai, pod_gpu_duty_cycle_anon.csv:
// `value,timestamp_anon,container_ip`, value in percent) as one series of
// values per container, in time order: what fleetcap-telemetry-replay plays
// back onto the demo's pods.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace fleetcap::testing {

struct DutyCycleSeries {
  std::string container;       // container_ip, anonymised
  std::vector<double> values;  // percent, 0..100, one per reading, in time order
};

struct DutyCycleData {
  std::vector<DutyCycleSeries> series;  // ordered by container
  int64_t rows = 0;                     // rows read into a series
  int64_t bad_rows = 0;                 // rows skipped
  std::vector<std::string> problems;    // the first bad rows, each naming its line
};

// Parses the CSV text; `source` names it in messages. A row that is not three
// cells, or whose value is not a number within 0..100 or whose timestamp is
// not a number, costs only itself: it is counted and skipped. Fails when the
// header is not the one expected or no row is usable.
absl::StatusOr<DutyCycleData> ParseDutyCycleCsv(absl::string_view text, const std::string& source);

}  // namespace fleetcap::testing

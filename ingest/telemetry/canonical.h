#pragma once
// fleetcap's canonical telemetry: what every exporter's metric becomes once
// its name and labels have been mapped (metric_mapping.h). One series is a
// device, or one pod's share of a device, and one field.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace fleetcap::telemetry {

enum class Field {
  kUtil,            // fraction of time busy, 0..1 (GPU_UTIL, duty_cycle, gfx activity)
  kGrEngineActive,  // fraction, 0..1; stands in for util when util is absent
  kSmActive,        // fraction, 0..1
  kTensorActive,    // fraction, 0..1
  kDramActive,      // fraction, 0..1
  kMemoryUsed,      // bytes
  kMemoryFree,      // bytes
  kMemoryTotal,     // bytes
  kPower,           // watts
  kEnergy,          // joules, a counter (resets handled)
};
constexpr int kFieldCount = 10;

// "util", "memory_used", ...: the names the mapping file uses.
absl::string_view FieldName(Field field);
bool ParseField(absl::string_view name, Field* field);

struct Point {
  int64_t ts_ms;
  double value;
};

// Who a series describes. `namespace_`/`pod` are empty for a device-level
// series; node and model may be empty when the exporter does not say.
struct SeriesKey {
  std::string device_id;
  std::string namespace_;
  std::string pod;
  std::string node;
  std::string model;

  bool has_pod() const { return !pod.empty(); }
};

struct CanonicalSeries {
  SeriesKey key;
  Field field;
  std::vector<Point> points;  // as received: any order, possibly duplicated
};

}  // namespace fleetcap::telemetry

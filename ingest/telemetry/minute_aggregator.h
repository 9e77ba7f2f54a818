#pragma once
// Per-minute aggregation, pure: stored canonical series in, usage_minute
// rows out. A minute is [m, m + 60 s). For each wanted (device, minute) it
// yields the device's row (pod_uid "") and one row per pod on the device:
// mean and max utilisation, mean memory and power, energy used (a counter's
// increase, resets handled) and the sample count. A field with no sample in
// the minute stays unset (NULL), never 0.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ingest/telemetry/canonical.h"
#include "store/usage_repository.h"

namespace fleetcap::telemetry {

constexpr int64_t kMinuteMs = 60'000;
// How far before a minute a counter's previous sample is looked for.
constexpr int64_t kCounterLookbackMs = 2 * kMinuteMs;

inline int64_t MinuteOf(int64_t ts_ms) {
  int64_t m = ts_ms / kMinuteMs;
  if (ts_ms % kMinuteMs < 0) --m;
  return m * kMinuteMs;
}

// A series as stored: identity resolved against the inventory, points
// sorted by time without duplicates.
struct StoredSeries {
  std::string device_id;
  std::string pod_uid;  // "" for a device-level series
  std::string namespace_;
  std::string pod;
  std::string node;
  std::string model;
  Field field = Field::kUtil;
  std::vector<Point> points;
};

// A usage_minute row, as the store keeps it.
using MinuteRow = store::UsageMinuteRow;

using DeviceMinute = std::pair<std::string, int64_t>;  // device_id, minute start (ms)

// Rows for the `wanted` device-minutes found in `series`, ordered by
// (device, pod_uid, minute). Points outside the wanted minutes only serve
// as a counter's previous sample.
std::vector<MinuteRow> AggregateMinutes(const std::vector<StoredSeries>& series, const std::set<DeviceMinute>& wanted);

}  // namespace fleetcap::telemetry

namespace fleetcap::telemetry {

// One series' per-minute figures as Prometheus computed them (the pull
// path): sample count, sum, max; for a counter, `sum` is its increase.
struct MinuteStats {
  int64_t minute_ms = 0;
  int n = 0;
  double sum = 0, max = 0;
};

struct StatSeries {
  StoredSeries identity;  // points unused
  std::vector<MinuteStats> minutes;
};

// The same rows AggregateMinutes makes, from per-minute figures. A device
// with only pod-level series gets a device row that adds the pods' counts
// and sums (their samples cannot be told apart by timestamp here, unlike
// AggregateMinutes); with one pod per device, as dcgm-exporter reports
// whole GPUs, the two agree.
std::vector<MinuteRow> AggregateMinuteStats(const std::vector<StatSeries>& series);

}  // namespace fleetcap::telemetry

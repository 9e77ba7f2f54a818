#include "ingest/telemetry/minute_aggregator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

namespace fleetcap::telemetry {
namespace {

// A byte count an int64 can hold, or none: an exporter's value (a scaled
// MiB figure near the DCGM blank floor, say) can be any double, and
// rounding one past 2^63 is undefined; such a figure is no measurement.
std::optional<int64_t> BytesOrNone(double bytes) {
  if (!std::isfinite(bytes) || bytes < 0 || bytes >= 9.2e18) return std::nullopt;
  return std::llround(bytes);
}

// One row's inputs: per field, the time-sorted points (with the lookback).
struct RowInputs {
  const StoredSeries* identity = nullptr;
  std::vector<Point> by_field[kFieldCount];
  bool device_level[kFieldCount] = {};
};

struct FieldStats {
  int n = 0;
  double sum = 0, max = 0;
};

// The first of `points` (sorted by time) at or after `lo`: a catch-up of
// many minutes builds each of them from the same points, so a scan from the
// start for every minute would cost minutes x points.
std::vector<Point>::const_iterator FirstAtOrAfter(const std::vector<Point>& points, int64_t lo) {
  return std::lower_bound(points.begin(), points.end(), lo,
                          [](const Point& p, int64_t ts_ms) { return p.ts_ms < ts_ms; });
}

FieldStats Stats(const std::vector<Point>& points, int64_t lo, int64_t hi) {
  FieldStats s;
  for (auto p = FirstAtOrAfter(points, lo); p != points.end() && p->ts_ms < hi; ++p) {
    s.sum += p->value;
    s.max = s.n == 0 ? p->value : std::max(s.max, p->value);
    ++s.n;
  }
  return s;
}

// The counter's increase over [lo, hi): each point's rise from its
// predecessor; a fall is a reset, after which the counter counted from 0.
std::optional<double> CounterIncrease(const std::vector<Point>& points, int64_t lo, int64_t hi) {
  std::optional<double> increase;
  for (auto i = static_cast<size_t>(FirstAtOrAfter(points, lo) - points.begin());
       i < points.size() && points[i].ts_ms < hi; ++i) {
    if (!increase) increase = 0.0;
    if (i == 0 || points[i - 1].ts_ms < lo - kCounterLookbackMs) continue;
    const double prev = points[i - 1].value, cur = points[i].value;
    *increase += cur >= prev ? cur - prev : cur;
  }
  return increase;
}

// Merges `from` into `into` (both sorted); on equal timestamps keeps the max.
void MergePoints(std::vector<Point>& into, const std::vector<Point>& from) {
  std::vector<Point> merged;
  merged.reserve(into.size() + from.size());
  size_t i = 0, j = 0;
  while (i < into.size() || j < from.size()) {
    if (j == from.size() || (i < into.size() && into[i].ts_ms < from[j].ts_ms)) {
      merged.push_back(into[i++]);
    } else if (i == into.size() || from[j].ts_ms < into[i].ts_ms) {
      merged.push_back(from[j++]);
    } else {
      merged.push_back({into[i].ts_ms, std::max(into[i].value, from[j].value)});
      ++i;
      ++j;
    }
  }
  into = std::move(merged);
}

std::optional<double> Mean(const FieldStats& s) {
  if (s.n == 0) return std::nullopt;
  return s.sum / s.n;
}

MinuteRow BuildRow(const RowInputs& in, const std::string& device_id, const std::string& pod_uid, int64_t m) {
  const int64_t hi = m + kMinuteMs;
  MinuteRow row;
  row.device_id = device_id;
  row.pod_uid = pod_uid;
  row.minute_ms = m;
  row.node = in.identity->node;
  row.model = in.identity->model;
  if (!pod_uid.empty()) {
    row.namespace_ = in.identity->namespace_;
    row.pod = in.identity->pod;
  }
  auto field = [&](Field f) { return Stats(in.by_field[static_cast<int>(f)], m, hi); };
  FieldStats util = field(Field::kUtil);
  if (util.n == 0) util = field(Field::kGrEngineActive);
  if (util.n > 0) {
    row.util_mean = util.sum / util.n;
    row.util_max = util.max;
  }
  const FieldStats used = field(Field::kMemoryUsed), total = field(Field::kMemoryTotal),
                   free = field(Field::kMemoryFree);
  if (used.n > 0) row.memory_used_bytes = BytesOrNone(used.sum / used.n);
  if (total.n > 0) {
    row.memory_total_bytes = BytesOrNone(total.sum / total.n);
  } else if (used.n > 0 && free.n > 0) {
    row.memory_total_bytes = BytesOrNone(used.sum / used.n + free.sum / free.n);
  }
  row.power_watts = Mean(field(Field::kPower));
  row.sm_active_mean = Mean(field(Field::kSmActive));
  row.tensor_active_mean = Mean(field(Field::kTensorActive));
  row.dram_active_mean = Mean(field(Field::kDramActive));
  row.energy_joules = CounterIncrease(in.by_field[static_cast<int>(Field::kEnergy)], m, hi);
  // The sample count is the utilisation's; a device that reports no
  // utilisation is counted by its best-sampled field.
  row.samples = util.n;
  if (row.samples == 0) {
    for (int f = 0; f < kFieldCount; ++f) row.samples = std::max(row.samples, Stats(in.by_field[f], m, hi).n);
  }
  return row;
}

// The earliest and latest point of any field of a row; none without points.
std::optional<std::pair<int64_t, int64_t>> PointSpan(const RowInputs& in) {
  std::optional<std::pair<int64_t, int64_t>> span;
  for (const std::vector<Point>& points : in.by_field) {
    if (points.empty()) continue;
    if (!span.has_value()) span = {points.front().ts_ms, points.back().ts_ms};
    span->first = std::min(span->first, points.front().ts_ms);
    span->second = std::max(span->second, points.back().ts_ms);
  }
  return span;
}

}  // namespace

std::vector<MinuteRow> AggregateMinutes(const std::vector<StoredSeries>& series, const std::set<DeviceMinute>& wanted) {
  // (device, pod_uid) -> inputs; pod_uid "" gathers the whole device.
  std::map<std::pair<std::string, std::string>, RowInputs> rows;
  std::set<std::string> wanted_devices;
  for (const auto& [device, minute] : wanted) wanted_devices.insert(device);
  for (const StoredSeries& s : series) {
    if (wanted_devices.count(s.device_id) == 0) continue;
    const int f = static_cast<int>(s.field);
    if (!s.pod_uid.empty()) {
      RowInputs& pod_row = rows[{s.device_id, s.pod_uid}];
      if (pod_row.identity == nullptr) pod_row.identity = &s;
      MergePoints(pod_row.by_field[f], s.points);
    }
    // The device's row: a device-level series wins; without one, the pods'
    // series of the device are merged (they measure the same device).
    RowInputs& device_row = rows[{s.device_id, ""}];
    if (device_row.identity == nullptr || (s.pod_uid.empty() && !device_row.identity->pod_uid.empty())) {
      device_row.identity = &s;
    }
    if (s.pod_uid.empty()) {
      if (!device_row.device_level[f]) device_row.by_field[f].clear();
      device_row.device_level[f] = true;
      MergePoints(device_row.by_field[f], s.points);
    } else if (!device_row.device_level[f]) {
      MergePoints(device_row.by_field[f], s.points);
    }
  }
  std::vector<MinuteRow> out;
  for (const auto& [key, inputs] : rows) {
    // Only the minutes the row's points reach can have samples: a pod's row
    // spans its hold, not every minute of its device.
    const std::optional<std::pair<int64_t, int64_t>> span = PointSpan(inputs);
    if (!span.has_value()) continue;
    auto first = wanted.lower_bound({key.first, MinuteOf(span->first)});
    for (auto it = first; it != wanted.end() && it->first == key.first && it->second <= span->second; ++it) {
      MinuteRow row = BuildRow(inputs, key.first, key.second, it->second);
      if (row.samples > 0) out.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace fleetcap::telemetry

namespace fleetcap::telemetry {
namespace {

struct StatRow {
  const StoredSeries* identity = nullptr;
  std::map<int64_t, MinuteStats> by_field[kFieldCount];
  bool device_level[kFieldCount] = {};
};

void AddStats(std::map<int64_t, MinuteStats>& into, const std::vector<MinuteStats>& from, bool counter) {
  for (const MinuteStats& s : from) {
    auto [it, inserted] = into.try_emplace(s.minute_ms, s);
    if (inserted) continue;
    MinuteStats& m = it->second;
    m.max = std::max(m.max, s.max);
    if (counter) {
      m.sum = std::max(m.sum, s.sum);  // the same device counter seen under several pods
      m.n = std::max(m.n, s.n);
    } else {
      m.sum += s.sum;
      m.n += s.n;
    }
  }
}

// Each series' minutes summed into its pod's row and into its device's row;
// a device-level series, once seen, replaces what pods added to the device.
std::map<std::pair<std::string, std::string>, StatRow> GroupMinuteStats(const std::vector<StatSeries>& series) {
  std::map<std::pair<std::string, std::string>, StatRow> rows;
  for (const StatSeries& s : series) {
    const StoredSeries& id = s.identity;
    const int f = static_cast<int>(id.field);
    const bool counter = id.field == Field::kEnergy;
    if (!id.pod_uid.empty()) {
      StatRow& pod_row = rows[{id.device_id, id.pod_uid}];
      if (pod_row.identity == nullptr) pod_row.identity = &id;
      AddStats(pod_row.by_field[f], s.minutes, counter);
    }
    StatRow& device_row = rows[{id.device_id, ""}];
    if (device_row.identity == nullptr || (id.pod_uid.empty() && !device_row.identity->pod_uid.empty())) {
      device_row.identity = &id;
    }
    if (id.pod_uid.empty()) {
      if (!device_row.device_level[f]) device_row.by_field[f].clear();
      device_row.device_level[f] = true;
      AddStats(device_row.by_field[f], s.minutes, counter);
    } else if (!device_row.device_level[f]) {
      AddStats(device_row.by_field[f], s.minutes, counter);
    }
  }
  return rows;
}

// The row of one device (pod_uid empty) or pod for minute m; samples 0 when it has none.
MinuteRow BuildMinuteRow(const std::pair<std::string, std::string>& key, const StatRow& in, int64_t m) {
  auto get = [&](Field f) -> const MinuteStats* {
    const auto& field = in.by_field[static_cast<int>(f)];
    auto it = field.find(m);
    return it == field.end() || it->second.n == 0 ? nullptr : &it->second;
  };
  auto mean = [&](Field f) -> std::optional<double> {
    const MinuteStats* s = get(f);
    if (s == nullptr) return std::nullopt;
    return s->sum / s->n;
  };
  MinuteRow row;
  row.device_id = key.first;
  row.pod_uid = key.second;
  row.minute_ms = m;
  row.node = in.identity->node;
  row.model = in.identity->model;
  if (!key.second.empty()) {
    row.namespace_ = in.identity->namespace_;
    row.pod = in.identity->pod;
  }
  const MinuteStats* util = get(Field::kUtil);
  if (util == nullptr) util = get(Field::kGrEngineActive);
  if (util != nullptr) {
    row.util_mean = util->sum / util->n;
    row.util_max = util->max;
  }
  const auto used = mean(Field::kMemoryUsed), total = mean(Field::kMemoryTotal), free = mean(Field::kMemoryFree);
  if (used) row.memory_used_bytes = BytesOrNone(*used);
  if (total) {
    row.memory_total_bytes = BytesOrNone(*total);
  } else if (used && free) {
    row.memory_total_bytes = BytesOrNone(*used + *free);
  }
  row.power_watts = mean(Field::kPower);
  row.sm_active_mean = mean(Field::kSmActive);
  row.tensor_active_mean = mean(Field::kTensorActive);
  row.dram_active_mean = mean(Field::kDramActive);
  if (const MinuteStats* e = get(Field::kEnergy)) row.energy_joules = e->sum;
  row.samples = util != nullptr ? util->n : 0;
  if (row.samples == 0) {
    for (int f = 0; f < kFieldCount; ++f) {
      if (const MinuteStats* s = get(static_cast<Field>(f))) row.samples = std::max(row.samples, s->n);
    }
  }
  return row;
}

}  // namespace

std::vector<MinuteRow> AggregateMinuteStats(const std::vector<StatSeries>& series) {
  const std::map<std::pair<std::string, std::string>, StatRow> rows = GroupMinuteStats(series);
  std::vector<MinuteRow> out;
  for (const auto& [key, in] : rows) {
    std::set<int64_t> minutes;
    for (const auto& field : in.by_field) {
      for (const auto& [m, stats] : field) minutes.insert(m);
    }
    for (int64_t m : minutes) {
      MinuteRow row = BuildMinuteRow(key, in, m);
      if (row.samples > 0) out.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace fleetcap::telemetry

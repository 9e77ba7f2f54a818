#include "ingest/telemetry/minute_window.h"

#include <algorithm>
#include <iterator>

namespace fleetcap::telemetry {

void MinuteWindow::Restore(const std::vector<DeviceProgress>& progress) {
  for (const DeviceProgress& p : progress) {
    DeviceState& device = devices_[p.device_id];
    device.closed_through_ms = p.closed_through_ms;
    for (const CanonicalSeries& c : p.carried) {
      if (c.points.empty()) continue;
      auto [it, inserted] = device.series.try_emplace({c.key.namespace_, c.key.pod, static_cast<int>(c.field)});
      if (inserted) ++series_count_;
      SeriesState& s = it->second;
      s.key = c.key;
      s.field = c.field;
      s.has_carry = true;
      s.carry = c.points.back();
    }
  }
}

MinuteWindow::DeviceState* MinuteWindow::FindOrMakeRoom(const std::string& device_id, absl::Time now, bool* swept) {
  if (auto it = devices_.find(device_id); it != devices_.end()) return &it->second;
  if (static_cast<int64_t>(devices_.size()) >= limits_.max_devices && !*swept) {
    // Forget every idle device at once, so sweeps are rare; at most one a
    // record when none is idle.
    *swept = true;
    const absl::Duration idle = absl::Milliseconds(std::max(settle_ms_, kCounterLookbackMs));
    for (auto it = devices_.begin(); it != devices_.end();) {
      if (it->second.open.empty() && now - it->second.last_arrival >= idle) {
        forgotten_through_ms_ = std::max(forgotten_through_ms_, it->second.closed_through_ms);
        series_count_ -= static_cast<int64_t>(it->second.series.size());
        for (const auto& [key, s] : it->second.series) held_points_ -= static_cast<int64_t>(s.points.size());
        it = devices_.erase(it);
      } else {
        ++it;
      }
    }
  }
  if (static_cast<int64_t>(devices_.size()) >= limits_.max_devices) return nullptr;
  DeviceState& device = devices_[device_id];
  device.closed_through_ms = forgotten_through_ms_;
  return &device;
}

AddCounts MinuteWindow::Add(int64_t record_begin, int64_t record_end, std::vector<CanonicalSeries> series,
                            absl::Time now) {
  AddCounts counts;
  next_record_ = std::max(next_record_, record_end);
  bool swept = false;
  for (CanonicalSeries& in : series) {
    DeviceState* found = FindOrMakeRoom(in.key.device_id, now, &swept);
    if (found == nullptr) {
      counts.device_limit += static_cast<int64_t>(in.points.size());
      continue;
    }
    DeviceState& device = *found;
    const std::tuple<std::string, std::string, int> series_key{in.key.namespace_, in.key.pod,
                                                               static_cast<int>(in.field)};
    if (device.series.count(series_key) == 0 && series_count_ >= limits_.max_series) {
      counts.series_limit += static_cast<int64_t>(in.points.size());
      continue;
    }
    device.last_arrival = now;
    auto [it, inserted] = device.series.try_emplace(series_key);
    if (inserted) ++series_count_;
    SeriesState& s = it->second;
    if (inserted || s.key.device_id.empty()) {
      s.key = std::move(in.key);
      s.field = in.field;
    }
    // Out of order within a request is allowed; the first of equal
    // timestamps wins, so the sort is stable.
    if (!std::is_sorted(in.points.begin(), in.points.end(),
                        [](const Point& a, const Point& b) { return a.ts_ms < b.ts_ms; })) {
      std::stable_sort(in.points.begin(), in.points.end(),
                       [](const Point& a, const Point& b) { return a.ts_ms < b.ts_ms; });
    }
    int64_t last_minute = INT64_MIN;
    for (const Point& p : in.points) {
      if (p.ts_ms < device.closed_through_ms) {
        ++counts.late;
        continue;
      }
      if (s.points.empty() || p.ts_ms > s.points.back().ts_ms) {
        s.points.push_back(p);
      } else {
        auto at = std::lower_bound(s.points.begin(), s.points.end(), p.ts_ms,
                                   [](const Point& a, int64_t ts) { return a.ts_ms < ts; });
        if (at->ts_ms == p.ts_ms) {
          ++counts.duplicate;
          continue;
        }
        s.points.insert(at, p);
      }
      ++counts.accepted;
      ++held_points_;
      device.newest_ms = std::max(device.newest_ms, p.ts_ms);
      const int64_t minute = MinuteOf(p.ts_ms);
      if (minute != last_minute) {
        last_minute = minute;
        if (device.open.emplace(minute, record_begin).second) ++open_minutes_;
      }
    }
  }
  return counts;
}

void MinuteWindow::CloseDevice(const std::string& device_id, DeviceState& device, int64_t through_ms,
                               ClosedBatch* out) {
  DeviceProgress progress{device_id, through_ms, {}};
  for (auto it = device.series.begin(); it != device.series.end();) {
    SeriesState& s = it->second;
    const auto split = std::lower_bound(s.points.begin(), s.points.end(), through_ms,
                                        [](const Point& a, int64_t ts) { return a.ts_ms < ts; });
    const bool counter = s.field == Field::kEnergy;
    if (split != s.points.begin()) {
      CanonicalSeries closed{s.key, s.field, {}};
      closed.points.reserve(static_cast<size_t>(split - s.points.begin()) + 1);
      if (s.has_carry) closed.points.push_back(s.carry);
      closed.points.insert(closed.points.end(), s.points.begin(), split);
      if (counter) {
        s.has_carry = true;
        s.carry = *(split - 1);
      }
      held_points_ -= split - s.points.begin();
      s.points.erase(s.points.begin(), split);
      out->series.push_back(std::move(closed));
    }
    // A counter's sample older than the lookback no longer starts anything.
    if (s.has_carry && s.carry.ts_ms < through_ms - kCounterLookbackMs) s.has_carry = false;
    if (s.has_carry) progress.carried.push_back(CanonicalSeries{s.key, s.field, {s.carry}});
    // A series with nothing held (a pod that left the device) is forgotten.
    if (s.points.empty() && !s.has_carry) {
      it = device.series.erase(it);
      --series_count_;
    } else {
      ++it;
    }
  }
  while (!device.open.empty() && device.open.begin()->first < through_ms) {
    out->minutes.insert({device_id, device.open.begin()->first});
    device.open.erase(device.open.begin());
    --open_minutes_;
  }
  device.closed_through_ms = through_ms;
  out->progress.push_back(std::move(progress));
}

ClosedBatch MinuteWindow::Close(absl::Time now, bool all) {
  ClosedBatch out;
  const int64_t settle_ms = settle_ms_;
  for (auto& [device_id, device] : devices_) {
    if (device.open.empty()) continue;
    int64_t through;
    if (all || now - device.last_arrival >= absl::Milliseconds(settle_ms)) {
      through = MinuteOf(device.newest_ms) + kMinuteMs;
    } else {
      through = MinuteOf(device.newest_ms - settle_ms - kMinuteMs) + kMinuteMs;
    }
    if (device.open.begin()->first < through) CloseDevice(device_id, device, through, &out);
  }
  int64_t checkpoint = next_record_;
  for (const auto& [device_id, device] : devices_) {
    if (!device.open.empty()) {
      for (const auto& [minute, record] : device.open) checkpoint = std::min(checkpoint, record);
    }
  }
  out.checkpoint = checkpoint;
  out.checkpoint_moved = checkpoint != last_checkpoint_;
  last_checkpoint_ = checkpoint;
  return out;
}

}  // namespace fleetcap::telemetry

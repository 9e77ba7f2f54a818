#include "optimizer/insights/workload_observation.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace fleetcap::insights {
namespace {

// The activity of a reading: SM activity where the exporter sends it (how
// much of the GPU its kernels use), else the duty cycle (that a kernel ran);
// a value that is no fraction (NaN, infinite) is no reading.
std::optional<double> ActivityOf(const PodMinute& r, WorkloadObservation& o) {
  const auto usable = [](const std::optional<double>& v) { return v && std::isfinite(*v); };
  if (usable(r.sm_active_mean)) {
    ++o.sm_active_readings;
    return std::clamp(*r.sm_active_mean, 0.0, 1.0);
  }
  if (usable(r.util_mean)) {
    ++o.duty_cycle_readings;
    return std::clamp(*r.util_mean, 0.0, 1.0);
  }
  return std::nullopt;
}

const PodMinute* ReadingOf(const std::vector<const PodMinute*>& minute, const WorkloadHold& h) {
  for (const PodMinute* r : minute) {
    if (r->pod_uid == h.pod_uid && r->device_id == h.device_id) return r;
  }
  return nullptr;
}

// Each share held in the minute, read; false (and `o` untouched) when one
// has no activity.
bool ObserveMinute(const std::vector<const WorkloadHold*>& held, const std::vector<const PodMinute*>& minute,
                   double idle_below, WorkloadObservation& o) {
  std::vector<const PodMinute*> readings;
  for (const WorkloadHold* h : held) {
    const PodMinute* r = ReadingOf(minute, *h);
    const bool has_activity = r && ((r->sm_active_mean && std::isfinite(*r->sm_active_mean)) ||
                                    (r->util_mean && std::isfinite(*r->util_mean)));
    if (!has_activity) return false;
    readings.push_back(r);
  }
  std::set<std::string> devices, active, pods;
  for (size_t i = 0; i < held.size(); ++i) {
    const PodMinute& r = *readings[i];
    // A reading is of the whole device (docs/telemetry.md), as the
    // chargeback reads it; the rules weigh it against the share held.
    const double activity = *ActivityOf(r, o) * 1000.0 / static_cast<double>(held[i]->milli);
    o.activity.push_back(activity);
    if (r.memory_used_bytes && *r.memory_used_bytes >= 0) {
      o.memory_used_bytes.push_back(static_cast<double>(*r.memory_used_bytes));
    }
    if (r.memory_total_bytes && *r.memory_total_bytes > 0) {
      o.device_memory_bytes = std::max(o.device_memory_bytes.value_or(0), *r.memory_total_bytes);
    }
    devices.insert(held[i]->device_id);
    if (activity >= idle_below) active.insert(held[i]->device_id);
    if (!pods.insert(held[i]->pod_uid).second) o.one_device_per_pod = false;
  }
  o.active_devices.push_back(static_cast<double>(active.size()));
  o.max_devices_held = std::max(o.max_devices_held, static_cast<int>(devices.size()));
  ++o.observed_minutes;
  return true;
}

void CountHeldTime(const WorkloadFacts& w, absl::Time start, absl::Time end, WorkloadObservation& o) {
  for (const WorkloadHold& h : w.holds) {
    const absl::Time from = std::max(h.from, start);
    const absl::Time to = std::min(h.to, end);
    if (from >= to) continue;
    o.held_milli_seconds += h.milli * absl::ToInt64Seconds(to - from);
    o.whole_devices = o.whole_devices && h.milli == 1000;
    if (!o.share_milli) o.share_milli = h.milli;
    if (*o.share_milli != h.milli) o.share_milli = -1;
  }
  if (o.share_milli == -1) o.share_milli.reset();
}

}  // namespace

const char* WorkloadObservation::Signal() const {
  if (sm_active_readings > 0 && duty_cycle_readings > 0) return "mixed";
  return sm_active_readings > 0 ? "sm_active" : "duty_cycle";
}

WorkloadObservation Observe(const WorkloadFacts& w, absl::Time start, absl::Time end, double idle_below) {
  WorkloadObservation o;
  CountHeldTime(w, start, end, o);
  std::vector<const PodMinute*> readings;
  for (const PodMinute& r : w.minutes) {
    if (r.minute >= start && r.minute < end) readings.push_back(&r);
  }
  std::sort(readings.begin(), readings.end(),
            [](const PodMinute* a, const PodMinute* b) { return a->minute < b->minute; });
  std::vector<const WorkloadHold*> holds;
  for (const WorkloadHold& h : w.holds) holds.push_back(&h);
  std::sort(holds.begin(), holds.end(), [](const WorkloadHold* a, const WorkloadHold* b) { return a->from < b->from; });
  // One sweep over the minutes read: the holds begun by a minute's end
  // join, those over by its start leave; a minute read twice is read once.
  std::vector<const WorkloadHold*> open;
  size_t next_hold = 0;
  for (size_t i = 0; i < readings.size();) {
    const absl::Time m = readings[i]->minute;
    std::vector<const PodMinute*> minute;
    for (; i < readings.size() && readings[i]->minute == m; ++i) minute.push_back(readings[i]);
    for (; next_hold < holds.size() && holds[next_hold]->from < m + absl::Minutes(1); ++next_hold) {
      open.push_back(holds[next_hold]);
    }
    open.erase(std::remove_if(open.begin(), open.end(), [m](const WorkloadHold* h) { return h->to <= m; }), open.end());
    if (!open.empty()) ObserveMinute(open, minute, idle_below, o);
  }
  return o;
}

}  // namespace fleetcap::insights

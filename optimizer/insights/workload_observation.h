#pragma once
// One workload's lookback as rightsizing reads it: which minutes are
// observed and what its devices did in them. A minute is observed when every
// device share the workload held in it has a reading with an activity; a
// minute with any share unread is unknown and left out whole (unknown is
// never unused, docs/insights.md).

#include <cstdint>
#include <optional>
#include <vector>

#include "optimizer/insights/rightsizing_facts.h"

namespace fleetcap::insights {

struct WorkloadObservation {
  int64_t held_milli_seconds = 0;  // over the lookback, observed or not
  int64_t observed_minutes = 0;
  int max_devices_held = 0;   // at once, in an observed minute
  bool whole_devices = true;  // every hold is a whole device
  // The milli every hold has, when they all have the same.
  std::optional<int64_t> share_milli;
  bool one_device_per_pod = true;  // no pod held two devices in an observed minute
  // Per observed minute: the devices with activity at or above the idle
  // threshold (a device counts once, whichever of its pods was active).
  std::vector<double> active_devices;
  // Per observed pod and device minute: its activity (0..1 of what the pod
  // holds), and its memory used where read.
  std::vector<double> activity;
  std::vector<double> memory_used_bytes;
  std::optional<int64_t> device_memory_bytes;  // the largest memory_total read
  int64_t sm_active_readings = 0;              // activities read from SM activity
  int64_t duty_cycle_readings = 0;             // ... and from the duty cycle

  // "sm_active", "duty_cycle" or "mixed".
  const char* Signal() const;
};

// What `w`'s pods did over [start, end); `idle_below` is the activity (0..1)
// below which a device is idle.
WorkloadObservation Observe(const WorkloadFacts& w, absl::Time start, absl::Time end, double idle_below);

}  // namespace fleetcap::insights

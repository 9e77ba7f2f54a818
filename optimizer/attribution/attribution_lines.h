#pragma once
// What the attribution engine writes: chargeback lines per hour, and a
// report of the facts it could not use as they were. Money is int64
// micro-units, device time int64 milli-device-seconds.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace fleetcap::attribution {

inline constexpr const char* kWorkloadLine = "workload";  // a team's holds in a namespace and workload
inline constexpr const char* kIdleLine = "idle";          // idle kept, or with nobody to share it
inline constexpr const char* kSharedLine = "shared";      // holds in a shared namespace
inline constexpr const char* kFixedLine = "fixed";        // a team's part of the fixed monthly costs

inline constexpr const char* kIdleTeam = "idle";

struct ChargeLine {
  absl::Time hour;
  std::string cluster;  // "" on `fixed` lines
  std::string team;
  std::string namespace_name;
  std::string workload;
  std::string model;  // "" on `fixed` lines
  std::string line_kind;
  int64_t held_milli_seconds = 0;
  int64_t used_milli_seconds = 0;
  // Held time with a usage reading: used / observed is the efficiency;
  // held - observed is unknown, never unused.
  int64_t observed_milli_seconds = 0;
  int64_t direct_cost_micro = 0;
  int64_t idle_cost_micro = 0;
  int64_t shared_cost_micro = 0;
  int64_t total_cost_micro = 0;  // direct + idle + shared
  // Under `usage` or `max`, some hold of the line had no telemetry for an
  // hour and was charged what it held.
  bool no_telemetry = false;
};

// What the holds on one device came to in one hour: its part of the held,
// used and observed time of the hour's lines. A (cluster, model)'s devices
// add up to its lines' figures exactly; a device nobody held has none.
struct DeviceHourUse {
  std::string cluster;
  std::string model;
  std::string node;
  std::string device_id;
  int64_t held_milli_seconds = 0;
  int64_t used_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;  // held time with a usage reading
};

// Every line of one hour, ordered by (cluster, model, team, namespace,
// workload, line_kind), and the devices held in it, by (cluster, model).
struct HourLines {
  absl::Time hour;
  std::vector<ChargeLine> lines;
  std::vector<DeviceHourUse> devices;
};

// A device whose holds added up to more than the whole device over
// [from, to): inconsistent facts. The charge stays conserved (docs/attribution.md).
struct OverHeldDevice {
  std::string cluster;
  std::string device_id;
  absl::Time from;
  absl::Time to;
  int64_t held_milli = 0;
  std::vector<std::string> pod_uids;  // the holds that made it up
};

// Device time in service with no price for its model and cluster: it costs nothing.
struct UnpricedTime {
  absl::Time hour;
  std::string cluster;
  std::string model;
  int64_t device_seconds = 0;
};

// A fact left out, and why.
struct RejectedFact {
  std::string fact;  // "hold pod p-1 on device g-0 of c-1"
  std::string reason;
};

struct AttributionReport {
  int64_t total_cost_micro = 0;  // the sum of every line of every hour
  std::vector<OverHeldDevice> over_held;
  std::vector<UnpricedTime> unpriced;
  std::vector<RejectedFact> rejected;
};

}  // namespace fleetcap::attribution

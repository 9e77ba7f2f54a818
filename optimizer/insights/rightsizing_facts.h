#pragma once
// What the rightsizing engine reads (docs/insights.md, "Rightsizing"): per
// workload over the lookback, the devices its pods held and its pods'
// per-minute readings, already loaded by whoever calls it (the optimizer's
// insights pass from the store, tests from case files). Times are UTC;
// holds are half-open [from, to), absl::InfiniteFuture() while still open.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"

namespace fleetcap::insights {

// A pod holding part of a device: `milli` of 1000 (a whole device 1000, a
// MIG 3g slice 428, a time-sliced replica of 4 250).
struct WorkloadHold {
  std::string pod_uid;
  std::string device_id;
  int64_t milli = 0;
  absl::Time from;
  absl::Time to = absl::InfiniteFuture();
};

// A pod's reading of one device over the minute starting at `minute`, as
// usage_minute stores it (docs/telemetry.md). Activity is a fraction 0..1 of
// what the pod holds; a field the exporter did not send is absent.
struct PodMinute {
  std::string pod_uid;
  std::string device_id;
  absl::Time minute;
  std::optional<double> util_mean;       // duty cycle
  std::optional<double> sm_active_mean;  // SM activity, where sent
  std::optional<int64_t> memory_used_bytes;
  std::optional<int64_t> memory_total_bytes;
};

struct WorkloadFacts {
  std::string cluster;
  std::string team;  // as the policy maps its namespace; "" when unmapped
  std::string namespace_name;
  std::string workload;  // its top controller, e.g. "Job/train"
  std::string model;
  std::vector<WorkloadHold> holds;
  std::vector<PodMinute> minutes;
};

struct RightsizingInput {
  absl::Time start;  // the lookback [start, end), whole minutes
  absl::Time end;
  std::vector<WorkloadFacts> workloads;
};

}  // namespace fleetcap::insights

#pragma once
// What the attribution engine reads: plain facts, already loaded by whoever
// calls it (the optimizer daemon from the store, tests from text files).
// Times are UTC and whole seconds (anything finer is dropped); intervals are
// half-open [from, to), absl::InfiniteFuture() while still open.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "policy/policy_document.h"

namespace fleetcap::attribution {

// One interval in which a device was in service. A device taken out and
// put back is two of these with the same (cluster, device_id).
struct DeviceInService {
  std::string cluster;
  std::string node;
  std::string device_id;  // unique in the cluster
  std::string model;
  absl::Time from;
  absl::Time to = absl::InfiniteFuture();
};

// A pod holding part of a device. `milli` is already the fraction it holds:
// a MIG 3g.40gb slice of a 7-slice GPU is 428, a time-sliced replica of 4 is
// 250, a gpu-milli share is taken as given.
struct HoldFact {
  std::string cluster;
  std::string pod_uid;
  std::string namespace_name;
  std::string team_label;  // the pod's own team label, "" when it has none
  std::string workload;    // the pod's top controller, e.g. "Job/train"
  std::string device_id;
  int64_t milli = 0;  // 1..1000
  absl::Time from;
  absl::Time to = absl::InfiniteFuture();
};

// The milli-devices a pod used of a device, averaged over the minute that
// starts at `minute`.
struct UsageMinute {
  std::string cluster;
  std::string pod_uid;
  std::string device_id;
  absl::Time minute;
  int64_t used_milli = 0;  // 0..1000
};

struct AttributionInput {
  absl::Time start;  // whole hours, start < end
  absl::Time end;
  std::vector<DeviceInService> devices;
  std::vector<policy::Price> prices;
  std::vector<HoldFact> holds;
  std::vector<UsageMinute> usage;
  policy::Attribution options;
};

}  // namespace fleetcap::attribution

#pragma once
// Which pod held which device when, read from the store for
// fleetcap-telemetry-replay. A DCGM exporter learns this from the kubelet's
// pod-resources API and labels each GPU's series with the pod on it; the
// demo has no kubelet, so the store (filled by `fleetcap-ingest k8s`) plays
// that part.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::testing {

struct DeviceHold {
  std::string pod_uid;
  std::string namespace_;
  std::string pod;
  std::string device_id;  // as `fleetcap-ingest k8s` stored it, e.g. "node-1/gpu0"
  std::string node;
  int device_index = 0;
  std::string model;
  int milli = 0;             // the pod's share of the device, 1..1000
  int64_t held_from_ms = 0;  // when the hold began, maybe before the window
  int64_t from_ms = 0;       // the hold, clipped to the window asked for
  int64_t to_ms = 0;
};

struct HoldsRead {
  std::vector<DeviceHold> holds;  // ordered by from_ms
  int64_t without_pod = 0;        // holds of a pod the store does not know (no name to label them with)
};

// The holds of `cluster` overlapping [start, end), clipped to it (an open
// hold ends at `end`).
absl::StatusOr<HoldsRead> ReadDeviceHolds(const std::string& db_uri, const std::string& cluster, absl::Time start,
                                          absl::Time end);

// Whether usage_minute already has a pod row of `cluster` in [start, end).
absl::StatusOr<bool> HasPodUsage(const std::string& db_uri, const std::string& cluster, absl::Time start,
                                 absl::Time end);

}  // namespace fleetcap::testing

#pragma once
// What the attribution engine needs of one cluster over a window of hours,
// read from the inventory (devices, holds, pods) and from the hourly usage
// rollups (store/usage_rollup_repository.h; minutes written since the last
// RollUp of their hour are not seen): the
// devices in service, the holds on them with the pod's namespace, own team
// label and top controller, and each pod's per-minute use of each device.
// The records mirror optimizer/attribution/attribution_facts.h; the
// optimizer maps between them and resolves teams with the policy.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// A period a device was in service, clipped to the window.
struct DeviceInServiceRecord {
  std::string device_id;
  std::string node;
  std::string model;
  absl::Time from;
  absl::Time to;

  bool operator==(const DeviceInServiceRecord& o) const;
};

// A pod's hold on a device, clipped to the window.
struct HoldFactRecord {
  std::string pod_uid;
  std::string namespace_name;  // "" when the inventory does not know the pod
  std::string team_label;      // the pod's own team label, "" when none
  std::string workload;        // the pod's top controller, "Kind/name"
  std::string device_id;
  int64_t milli = 0;
  absl::Time from;
  absl::Time to;

  bool operator==(const HoldFactRecord& o) const;
};

// The milli-devices a pod used of a device over the minute starting at
// `minute`: its usage_minute row's util_mean x 1000, rounded, as rolled up. Minutes with no
// utilisation reading are left out.
struct UsedMinuteRecord {
  std::string pod_uid;
  std::string device_id;
  absl::Time minute;
  int64_t used_milli = 0;

  bool operator==(const UsedMinuteRecord& o) const;
};

struct AttributionFactsRecord {
  std::vector<DeviceInServiceRecord> devices;  // by (device_id, from)
  std::vector<HoldFactRecord> holds;           // by (device_id, from, pod_uid)
  std::vector<UsedMinuteRecord> usage;         // by (device_id, pod_uid, minute)
};

// A cluster the inventory knows, and when its history starts: the earliest
// time one of its devices entered service (nullopt: it never had one).
struct ClusterHistoryRecord {
  std::string cluster;
  std::optional<absl::Time> first_in_service;

  bool operator==(const ClusterHistoryRecord& o) const;
};

class AttributionFactsRepository {
 public:
  virtual ~AttributionFactsRepository() = default;

  // The facts of `cluster` that overlap [start, end): intervals of no length
  // after clipping are left out; INVALID_ARGUMENT when end < start.
  virtual absl::StatusOr<AttributionFactsRecord> Facts(const std::string& cluster, absl::Time start,
                                                       absl::Time end) const = 0;
  // The devices and holds of Facts without the usage: who held what, at the
  // cost of the holds alone, for a reader that reads the minutes itself.
  virtual absl::StatusOr<AttributionFactsRecord> HoldFacts(const std::string& cluster, absl::Time start,
                                                           absl::Time end) const = 0;

  // Every cluster known, by name (bytewise). Periods of no length are not history.
  virtual absl::StatusOr<std::vector<ClusterHistoryRecord>> Clusters() const = 0;
};

// Shared by the implementations.
absl::Status CheckFactsWindow(const std::string& cluster, absl::Time start, absl::Time end);
// util_mean (a fraction of the device) as milli-devices, rounded half away
// from zero; -1 (which the engine rejects) for NaN or a reading past 1e6.
int64_t UsedMilli(double util_mean);

}  // namespace fleetcap::store

#pragma once
// The fleet's capacity over time: device time in service per bucket, per
// cluster and model, from the devices' service intervals (migration 0001's
// `devices`). The capacity series of the API (GetCapacitySeries) reads it
// beside the chargeback rollups; it never reads minute rows, so a 90-day
// hourly series costs a few rows per device interval and bucket.
//
// The fleet's assets over a window (GetAssets) are the same intervals per
// model, cluster, node or device, with what the holds took of them; the
// drill-down of one device is the holds that took it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// Which devices to count: buckets of `width` from `start` up to `end`
// (`end` - `start` a multiple of `width`); an empty selector matches all.
struct CapacityFilter {
  absl::Time start;
  absl::Time end;
  absl::Duration width = absl::Hours(1);
  std::string cluster;
  std::string model;
};

// The device time of one cluster and model in one bucket:
// devices in service x seconds x 1000.
struct CapacityPoint {
  absl::Time start;  // the bucket's
  std::string cluster;
  std::string model;
  int64_t milli_seconds = 0;

  bool operator==(const CapacityPoint& o) const {
    return start == o.start && cluster == o.cluster && model == o.model && milli_seconds == o.milli_seconds;
  }
};

// The level assets are summed at: each keys by the fields it names and
// those above it (a node by model, cluster and node; a device by model,
// cluster, node and device), so a node with two models is two groups and a
// device moved between nodes one group per node.
enum class AssetLevel { kModel, kCluster, kNode, kDevice };

// Which devices' time to sum over [start, end); an empty selector matches all.
struct AssetFilter {
  absl::Time start;
  absl::Time end;
  AssetLevel level = AssetLevel::kModel;
  std::string cluster;
  std::string model;
  std::string node;
};

// One group's device time over the window, in milli-device-seconds (one
// device for one second is 1,000). Each device interval in service is
// clipped to the window (capacity); the holds of the device inside that
// interval are clipped to it and weighed by their milli-devices (held:
// milli x whole milliseconds / 1000, rounded down per hold); idle is each
// interval's capacity - held, never below 0 (an over-held device idles not
// at all, and its excess is not taken from another device's idle). So idle
// is capacity - held for every group whose devices were never over-held.
struct AssetTime {
  // Those of the level's key; the others empty.
  std::string model, cluster, node, device;
  // The distinct devices in service at some time of the window.
  int64_t devices = 0;
  int64_t capacity_milli_seconds = 0;
  int64_t held_milli_seconds = 0;
  int64_t idle_milli_seconds = 0;

  bool operator==(const AssetTime& o) const {
    return model == o.model && cluster == o.cluster && node == o.node && device == o.device && devices == o.devices &&
           capacity_milli_seconds == o.capacity_milli_seconds && held_milli_seconds == o.held_milli_seconds &&
           idle_milli_seconds == o.idle_milli_seconds;
  }
};

// One hold of a device over a window, clipped to it, with what the
// inventory knows of its pod (empty where the pod was never stored).
struct DeviceHoldTime {
  std::string pod_uid;
  std::string pod;  // the pod's name
  std::string namespace_name;
  std::string workload_kind, workload_name;
  std::string team_label;  // pods.team: evidence, not the resolved team
  int64_t milli = 0;
  absl::Time from, to;  // the hold clipped to the window

  bool operator==(const DeviceHoldTime& o) const {
    return pod_uid == o.pod_uid && pod == o.pod && namespace_name == o.namespace_name &&
           workload_kind == o.workload_kind && workload_name == o.workload_name && team_label == o.team_label &&
           milli == o.milli && from == o.from && to == o.to;
  }
};

// The most holds DeviceHolds returns: a device's window past it is cut.
inline constexpr int kMaxDeviceHolds = 10'000;

class CapacityReadRepository {
 public:
  virtual ~CapacityReadRepository() = default;

  // The buckets with device time above zero, ordered by (cluster, model,
  // start). INVALID_ARGUMENT when the window is not whole buckets.
  virtual absl::StatusOr<std::vector<CapacityPoint>> DeviceTime(const CapacityFilter& filter) const = 0;

  // Every group of `filter.level` with a device in service during the
  // window, ordered by (model, cluster, node, device). INVALID_ARGUMENT when
  // the window ends before it starts.
  virtual absl::StatusOr<std::vector<AssetTime>> AssetTimes(const AssetFilter& filter) const = 0;

  // The holds of device `device` of `cluster` that overlap [start, end),
  // clipped to it, ordered by (from, pod_uid); at most `max_holds` of them
  // (the earliest). INVALID_ARGUMENT when the window ends before it starts.
  virtual absl::StatusOr<std::vector<DeviceHoldTime>> DeviceHolds(const std::string& cluster, const std::string& device,
                                                                  absl::Time start, absl::Time end,
                                                                  int max_holds = kMaxDeviceHolds) const = 0;
};

// OK when `filter` is a window of whole buckets (shared by the implementations).
absl::Status CheckCapacityFilter(const CapacityFilter& filter);

// OK when [start, end) does not end before it starts (shared by the implementations).
absl::Status CheckAssetWindow(absl::Time start, absl::Time end);

// A hold's device time over [from, to): milli x the whole milliseconds
// between them / 1000, rounded down (shared by the implementations and
// held to the query's arithmetic by the contract).
int64_t HeldMilliSeconds(int64_t milli, absl::Time from, absl::Time to);

}  // namespace fleetcap::store

#pragma once
// The fleet's capacity over time: device time in service per bucket, per
// cluster and model, from the devices' service intervals (migration 0001's
// `devices`). The capacity series of the API (GetCapacitySeries) reads it
// beside the chargeback rollups; it never reads minute rows, so a 90-day
// hourly series costs a few rows per device interval and bucket.

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

class CapacityReadRepository {
 public:
  virtual ~CapacityReadRepository() = default;

  // The buckets with device time above zero, ordered by (cluster, model,
  // start). INVALID_ARGUMENT when the window is not whole buckets.
  virtual absl::StatusOr<std::vector<CapacityPoint>> DeviceTime(const CapacityFilter& filter) const = 0;
};

// OK when `filter` is a window of whole buckets (shared by the implementations).
absl::Status CheckCapacityFilter(const CapacityFilter& filter);

}  // namespace fleetcap::store

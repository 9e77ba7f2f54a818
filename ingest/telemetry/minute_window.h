#pragma once
// The remote_write path's minutes in memory, before they are written. Each
// device's samples wait here, deduplicated by (series, timestamp) (the
// first value wins, as a retried request must not count twice), until the
// device's minute closes:
//   - its newest sample is `settle` past the minute's end (event time), or
//   - no sample for the device arrived for `settle` (wall time).
// A closed minute is aggregated once, from all of its samples, and written;
// a sample that arrives for a closed minute is late: dropped and counted,
// never folded into a row already written (as Prometheus refuses samples
// older than a series' newest).
//
// Every sample comes from a record of the sample log (sample_log.h). The
// checkpoint a closed batch carries is the position of the oldest record
// that still holds a sample of an open minute: replaying the log from there
// after a restart, with each device's closed-through bound and counters'
// carried samples restored from the store, rebuilds exactly the open
// minutes. Single-threaded.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "absl/time/time.h"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/minute_aggregator.h"

namespace fleetcap::telemetry {

// What the store keeps of a device between restarts.
struct DeviceProgress {
  std::string device_id;
  int64_t closed_through_ms = 0;  // minutes before this are written
  // A counter's last sample before `closed_through_ms`, one per series: the
  // next minute's increase starts from it.
  std::vector<CanonicalSeries> carried;
};

struct ClosedBatch {
  // Points of the closed minutes; a counter's carried sample comes first.
  std::vector<CanonicalSeries> series;
  std::set<DeviceMinute> minutes;
  std::vector<DeviceProgress> progress;  // the devices whose minutes closed
  int64_t checkpoint = 0;                // replay the log from here
  bool checkpoint_moved = false;
};

struct AddCounts {
  int64_t accepted = 0;
  int64_t duplicate = 0;     // same series and timestamp as one already held
  int64_t late = 0;          // in a minute already closed
  int64_t device_limit = 0;  // of a new device while `max_devices` are held
  int64_t series_limit = 0;  // of a new series while `max_series` are held
};

// What the window holds in memory at most. A device that holds no open
// minute and sent nothing for a while (idle) is forgotten when room is
// needed; one that comes back starts behind the newest bound of those
// forgotten, so no minute written for it is ever reopened.
struct WindowLimits {
  int64_t max_devices = 100'000;
  int64_t max_series = 1'000'000;
};

class MinuteWindow {
 public:
  explicit MinuteWindow(absl::Duration settle, WindowLimits limits = {})
      : settle_ms_(absl::ToInt64Milliseconds(settle)), limits_(limits) {}

  // Before any Add: what the store says was written.
  void Restore(const std::vector<DeviceProgress>& progress);

  // The samples of the log record ending at `record_end` (which begins at
  // `record_begin`), arriving at `now`.
  AddCounts Add(int64_t record_begin, int64_t record_end, std::vector<CanonicalSeries> series, absl::Time now);

  // Closes what is due at `now` (everything with `all`, for tests).
  ClosedBatch Close(absl::Time now, bool all = false);

  int64_t open_minutes() const { return open_minutes_; }
  int64_t held_points() const { return held_points_; }
  int64_t devices() const { return static_cast<int64_t>(devices_.size()); }
  int64_t series() const { return series_count_; }

 private:
  struct SeriesState {
    SeriesKey key;
    Field field;
    std::vector<Point> points;  // sorted, unique timestamps, all >= closed_through
    bool has_carry = false;
    Point carry{};
  };
  struct DeviceState {
    int64_t closed_through_ms = INT64_MIN;
    int64_t newest_ms = INT64_MIN;
    absl::Time last_arrival = absl::InfinitePast();
    std::map<std::tuple<std::string, std::string, int>, SeriesState> series;  // (namespace, pod, field)
    std::map<int64_t, int64_t> open;  // minute -> first record holding a sample of it
  };
  void CloseDevice(const std::string& device_id, DeviceState& device, int64_t through_ms, ClosedBatch* out);
  // The device's state, made room for when new; nullptr when none can be.
  DeviceState* FindOrMakeRoom(const std::string& device_id, absl::Time now, bool* swept);

  const int64_t settle_ms_;
  const WindowLimits limits_;
  int64_t series_count_ = 0;
  int64_t forgotten_through_ms_ = INT64_MIN;  // the newest bound of the devices forgotten
  std::unordered_map<std::string, DeviceState> devices_;
  int64_t next_record_ = 0;
  int64_t last_checkpoint_ = -1;
  int64_t open_minutes_ = 0;
  int64_t held_points_ = 0;
};

}  // namespace fleetcap::telemetry

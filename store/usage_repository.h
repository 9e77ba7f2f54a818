#pragma once
// Per-minute usage of accelerators (usage_minute) and the telemetry ingest's
// bookkeeping around it: which inventory a series joins (its identity), how
// far the remote_write path has closed each device (push state), and how far
// the pull path has fetched each metric (watermarks).
//
// UsageWriteRepository is what fleetcap-ingest writes through;
// UsageReadRepository is what the API and the optimizer read through.
//
// A minute row the store cannot hold costs only itself: a minute past year
// 9999, one before the retention horizon (its partition is dropped) and one
// the store refuses for its data are set aside (into the quarantine, in the
// same transaction as the rest) and reported back, while the other rows are
// written. Any other error is the store's own (UNAVAILABLE when it cannot be
// reached): nothing is set aside then, and the same write can be made again.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "store/quarantine_repository.h"

namespace fleetcap::store {

// One row of usage_minute: a device (pod_uid "") or one pod's share of it.
struct UsageMinuteRow {
  std::string device_id;
  std::string pod_uid;  // "" = the whole device
  int64_t minute_ms = 0;
  std::string node, model, namespace_, pod;
  std::optional<double> util_mean, util_max;
  std::optional<int64_t> memory_used_bytes, memory_total_bytes;
  std::optional<double> power_watts, energy_joules;
  std::optional<double> sm_active_mean, tensor_active_mean, dram_active_mean;
  int samples = 0;

  bool operator==(const UsageMinuteRow& o) const;
};

// A series as the exporter named it, with the node and model it labelled
// ("" when it did not say). `field` is the canonical field's name.
struct SeriesName {
  std::string device_id;
  std::string namespace_;  // "" with `pod` for a device-level series
  std::string pod;
  std::string field;
  std::string node, model;
};

// What a series joined in the inventory when first seen: the pod's uid by
// namespace and name (else "namespace/pod"; "" for a device-level series),
// the device's node and model where the exporter did not label them.
struct SeriesIdentity {
  std::string pod_uid;
  std::string node;
  std::string model;
};

// A counter's last sample before its device's closed-through bound: the next
// minute's increase starts from it.
struct CarriedCounter {
  std::string device_id, namespace_, pod, field;
  int64_t ts_ms = 0;
  double value = 0;
};

struct DeviceClosedThrough {
  std::string device_id;
  int64_t closed_through_ms = 0;  // minutes before this are written
};

// What the remote_write path stores with a batch of closed minutes.
struct PushProgress {
  std::vector<DeviceClosedThrough> devices;
  std::vector<CarriedCounter> carried;  // replace those of the same series
  // A device's carried counters older than its bound minus this are of
  // series that are gone, and are forgotten.
  int64_t counter_lookback_ms = 0;
  std::string log_id;
  int64_t checkpoint = 0;  // in the positions of `log_id`'s log
};

// What the remote_write path stored last, for a restart.
struct PushState {
  std::vector<DeviceClosedThrough> devices;
  std::vector<CarriedCounter> carried;  // only of the devices above
  std::optional<int64_t> checkpoint;
  std::string log_id;
};

// A row set aside, with the bounded `reason` label its metric counts it by
// ("minute_out_of_range", "minute_not_whole", "minute_before_retention",
// "rejected_by_store").
struct SetAsideMinute {
  QuarantineRecord record;
  std::string label;
};

struct MinuteWriteResult {
  int64_t written = 0;
  std::vector<SetAsideMinute> set_aside;
};

// How both implementations decide which minutes no partition holds.
struct UsageStoreOptions {
  int retention_days = 400;      // as usage_minute's partitions are kept
  const Clock* clock = nullptr;  // the retention horizon's now; nullptr: the real one
};

class UsageWriteRepository {
 public:
  virtual ~UsageWriteRepository() = default;

  // The identity of each series in `series` (in its order), registering the
  // new ones: a series joins the inventory once, and keeps that identity.
  virtual absl::StatusOr<std::vector<SeriesIdentity>> IdentifySeries(const std::string& cluster,
                                                                     const std::vector<SeriesName>& series) = 0;

  // Stores `rows`, replacing a row of the same (device, pod_uid, minute);
  // `source` ("pull", "remote_write") names the quarantine's source of the
  // rows set aside. Returns the rows written and those set aside.
  virtual absl::StatusOr<MinuteWriteResult> WriteMinutes(const std::string& cluster,
                                                         const std::vector<UsageMinuteRow>& rows,
                                                         const std::string& source) = 0;

  // The remote_write path's batch: `rows` (source "remote_write") and
  // `progress`, all or nothing, so a restart replays the log from the
  // checkpoint and rebuilds exactly the minutes that were not written.
  virtual absl::StatusOr<MinuteWriteResult> WriteClosedMinutes(const std::string& cluster,
                                                               const std::vector<UsageMinuteRow>& rows,
                                                               const PushProgress& progress) = 0;
  virtual absl::StatusOr<PushState> LoadPushState(const std::string& cluster) = 0;

  // The pull path's watermarks: per metric, minutes before it are final.
  virtual absl::StatusOr<std::map<std::string, absl::Time>> Watermarks(const std::string& cluster) = 0;
  // Moves each metric's watermark to `through`, never backwards.
  virtual absl::Status AdvanceWatermarks(const std::string& cluster, const std::vector<std::string>& metrics,
                                         absl::Time through) = 0;
};

enum class BucketWidth { kMinute, kHour, kDay };

// Which usage rows to read: one cluster, minutes in [start, end), either the
// pods' shares (`pods`) or the whole devices; an empty selector matches all.
struct UsageFilter {
  std::string cluster;
  absl::Time start, end;
  bool pods = false;
  std::string device, node, model;
  std::string pod;  // a pod's name or uid
  std::string namespace_;
};

// A part of one cluster's pod rows, minutes in [start, end): those of any of
// `devices` by any of `pod_uids` (none when either is empty), so a reader of
// every pod reads the cluster a part at a time.
struct PodSeriesFilter {
  std::string cluster;
  absl::Time start, end;
  std::vector<std::string> devices;
  std::vector<std::string> pod_uids;
};

// The rows of one bucket, aggregated.
struct UsageBucket {
  absl::Time start;
  // Mean of util_mean weighted by samples over the rows that have one.
  std::optional<double> util_mean;
  std::optional<double> util_max;
  std::optional<double> memory_used_bytes;  // mean over the rows that have one
  std::optional<double> power_watts;        // mean over the rows that have one
  std::optional<int64_t> samples;           // of the rows with util_mean
  int64_t series = 0;                       // distinct (device, pod_uid)
};

class UsageReadRepository {
 public:
  virtual ~UsageReadRepository() = default;

  // The rows `filter` selects, grouped in UTC buckets of `width`, oldest first;
  // buckets without rows are left out.
  virtual absl::StatusOr<std::vector<UsageBucket>> Buckets(const UsageFilter& filter, BucketWidth width) const = 0;

  // The rows `filter` selects, ordered by (device, pod_uid, minute).
  virtual absl::StatusOr<std::vector<UsageMinuteRow>> Minutes(const UsageFilter& filter) const = 0;
  // The pod rows `filter` selects, ordered by (device, pod_uid, minute).
  virtual absl::StatusOr<std::vector<UsageMinuteRow>> PodMinutes(const PodSeriesFilter& filter) const = 0;
};

// Shared by the implementations.
// The start of the UTC bucket of `width` holding `minute_ms`.
int64_t BucketStartMs(int64_t minute_ms, BucketWidth width);
// Whether `row` is one `filter` selects.
bool Selects(const UsageFilter& filter, const UsageMinuteRow& row);
// `rows` without those no partition can hold (past year 9999, or before the
// retention horizon of `retention_days` counted from `now`), which are
// appended to `set_aside` as `source`'s.
std::vector<UsageMinuteRow> WithoutUnstorable(const std::string& cluster, std::vector<UsageMinuteRow> rows,
                                              const std::string& source, absl::Time now, int retention_days,
                                              std::vector<SetAsideMinute>* set_aside);
// The clock `options` name, or the real one.
const Clock& ClockOf(const UsageStoreOptions& options);
// A row set aside as `source`'s for `reason`, counted under `label`.
SetAsideMinute SetAside(const std::string& cluster, const UsageMinuteRow& row, const std::string& source,
                        std::string label, std::string reason, absl::Time now);

}  // namespace fleetcap::store

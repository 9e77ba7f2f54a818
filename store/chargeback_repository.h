#pragma once
// Chargeback lines as the optimizer computes them (chargeback_hourly), their
// daily and monthly rollups, the optimizer's progress (a watermark per
// cluster, hours marked to compute again) and the over-held devices it
// reported. The records mirror the attribution engine's (optimizer/
// attribution/attribution_lines.h); the optimizer maps between them.
//
// ChargebackWriteRepository is what the optimizer writes through;
// ChargebackReadRepository is what the API reads through. Sums are int64: a
// sum past int64 is an OUT_OF_RANGE error, never a wrapped number.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// The line kinds the engine writes.
inline constexpr const char* kChargebackLineKinds[] = {"workload", "idle", "shared", "fixed"};

// One line of one hour. `cluster` and `model` are "" on `fixed` lines.
struct ChargebackLineRecord {
  absl::Time hour;
  std::string cluster;
  std::string team;
  std::string namespace_name;
  std::string workload;
  std::string model;
  std::string line_kind;
  int64_t held_milli_seconds = 0;
  int64_t used_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;  // held time with a usage reading
  int64_t direct_cost_micro = 0;
  int64_t idle_cost_micro = 0;
  int64_t shared_cost_micro = 0;
  int64_t total_cost_micro = 0;
  bool no_telemetry = false;

  bool operator==(const ChargebackLineRecord& o) const;
};

// A device whose holds added up past the whole device over [from, to).
struct OverHeldRecord {
  std::string cluster;
  std::string device_id;
  absl::Time from;
  absl::Time to;
  int64_t held_milli = 0;
  std::vector<std::string> pod_uids;

  bool operator==(const OverHeldRecord& o) const;
};

// What the holds on one device came to in one hour: its part of the held,
// used and observed time of its cluster and model's lines that hour.
struct DeviceHourRecord {
  absl::Time hour;
  std::string cluster;
  std::string model;
  std::string node;
  std::string device_id;
  int64_t held_milli_seconds = 0;  // > 0: only devices some pod held
  int64_t used_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;  // held time with a usage reading

  bool operator==(const DeviceHourRecord& o) const;
};

// What replaces a cluster's hours: its lines, over-held spans and devices held.
struct ChargebackHours {
  std::vector<ChargebackLineRecord> lines;
  std::vector<OverHeldRecord> over_held;
  std::vector<DeviceHourRecord> devices;
};

// An hour marked to compute again, and why. A leased mark also carries the
// row's counts when it was leased: `generation` (the marks that arrived while
// it was leased) and `lease` (its leases), by which CompleteRecompute knows
// whether it was marked again since, and whether the lease is still this one.
struct RecomputeMark {
  absl::Time hour;
  std::string reason;
  absl::Time noted_at;
  int64_t generation = 0;
  int64_t lease = 0;
};

class ChargebackWriteRepository {
 public:
  virtual ~ChargebackWriteRepository() = default;

  // Replaces every line, over-held span and device held of `cluster` in the
  // whole hours [start, end) with `hours`', and rebuilds the daily and
  // monthly rollups of those hours, all or nothing. Every line must be of
  // `cluster` and of an hour in the window, no two with the same key; an
  // over-held span must be of `cluster` and start in the window; a device
  // of `cluster`, of an hour in the window, once an hour, held, with
  // 0 <= observed <= held and used >= 0 (INVALID_ARGUMENT naming the line,
  // and nothing changes).
  virtual absl::Status ReplaceHours(const std::string& cluster, absl::Time start, absl::Time end,
                                    const ChargebackHours& hours) = 0;
  // The same with no device held: hours whose lines are all fixed costs, and
  // tests that read lines alone.
  absl::Status ReplaceHours(const std::string& cluster, absl::Time start, absl::Time end,
                            const std::vector<ChargebackLineRecord>& lines,
                            const std::vector<OverHeldRecord>& over_held) {
    return ReplaceHours(cluster, start, end, ChargebackHours{lines, over_held, {}});
  }

  // Every hour of `cluster` before the watermark is computed; nullopt before
  // the first. Advancing moves it to `through` (a whole hour), never backwards.
  virtual absl::StatusOr<std::optional<absl::Time>> Watermark(const std::string& cluster) = 0;
  virtual absl::Status AdvanceWatermark(const std::string& cluster, absl::Time through) = 0;

  // Marks whole `hours` of `cluster` to compute again; an hour marked already
  // keeps its first reason. Marking a leased hour again makes it pending once
  // its holder completes it: the facts changed after the holder read them.
  virtual absl::Status MarkForRecompute(const std::string& cluster, const std::vector<absl::Time>& hours,
                                        const std::string& reason) = 0;

  // Recompute marks are leased, not taken: a mark stays stored until the
  // hour is recomputed and stored, so an instance that dies in between (killed,
  // its node lost) leaves its marks to the next once its lease runs out.
  //
  // Leases to `holder` (who, for the operator) up to `limit` marked hours of
  // `cluster`, oldest first, until `now + lease`: those not leased, or whose
  // lease ended by `now`. A leased mark is given to no other lease before its
  // lease ends. INVALID_ARGUMENT for a negative `limit`, an empty `holder` or
  // a `lease` not longer than zero.
  virtual absl::StatusOr<std::vector<RecomputeMark>> LeaseRecompute(const std::string& cluster, int limit,
                                                                    const std::string& holder, absl::Time now,
                                                                    absl::Duration lease) = 0;
  // The hours of leased `marks` are recomputed and stored: removes each mark
  // still under the lease it came with and not marked again since; one marked
  // again is unleased instead, pending for the next pass. A mark leased again
  // since (its lease ran out) is left to its new holder.
  virtual absl::Status CompleteRecompute(const std::string& cluster, const std::vector<RecomputeMark>& marks) = 0;
  // Ends the lease of `marks` still under it without removing them: pending
  // again at once (hours the holder leaves to a later pass).
  virtual absl::Status ReleaseRecompute(const std::string& cluster, const std::vector<RecomputeMark>& marks) = 0;
};

enum class ChargebackResolution { kHour, kDay, kMonth, kNone };

// The keys the lines are summed by; a key not grouped by is "" in the sums.
struct ChargebackGroupBy {
  bool team = false;
  bool cluster = false;
  bool namespace_name = false;
  bool workload = false;
  bool model = false;
  bool line_kind = false;
};

// Which lines to sum: hours in [start, end); an empty selector matches all.
struct ChargebackFilter {
  absl::Time start;
  absl::Time end;
  std::vector<std::string> teams;  // any of these
  std::string cluster;
  std::string namespace_name;
  std::string workload;
  std::string model;
  std::string line_kind;
  // Sum held and used alone and leave the money at 0: what a device-time
  // series reads, in about half the time on a long window.
  bool device_time_only = false;
  // Above 0, read at most this many sums and one more: enough for a caller
  // to refuse an answer too large without holding all of it.
  int64_t max_lines = 0;
};

// The sum of the lines of one period and group. `start` is the period's
// (the window's start under kNone); `no_telemetry` if any line says so.
struct ChargebackSum {
  absl::Time start;
  std::string team, cluster, namespace_name, workload, model, line_kind;
  int64_t held_milli_seconds = 0;
  int64_t used_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;  // held time with a usage reading
  int64_t direct_cost_micro = 0;
  int64_t idle_cost_micro = 0;
  int64_t shared_cost_micro = 0;
  int64_t total_cost_micro = 0;
  bool no_telemetry = false;

  bool operator==(const ChargebackSum& o) const;
};

// Which devices' use to sum: the hours [start, end) (whole hours) of the
// devices of `cluster`, `model` and `node` ("" for any).
struct DeviceUseFilter {
  absl::Time start;
  absl::Time end;
  std::string cluster;
  std::string model;
  std::string node;
  bool by_device = false;  // a sum per device; otherwise per node
};

// The use of a node's devices (or of one device) over a window.
struct DeviceUseSum {
  std::string cluster, model, node;
  std::string device_id;  // "" when summed per node
  int64_t held_milli_seconds = 0;
  int64_t used_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;

  bool operator==(const DeviceUseSum& o) const;
};

// The devices held over a window: their sums, and the clusters with an hour
// in it whose lines were computed before devices were kept (a store's
// history from before migration 0041, until computed again): their devices'
// use there is unknown, so theirs are not whole.
struct DeviceUse {
  std::vector<DeviceUseSum> sums;
  std::vector<std::string> clusters_not_kept;  // bytewise order

  bool operator==(const DeviceUse& o) const;
};

class ChargebackReadRepository {
 public:
  virtual ~ChargebackReadRepository() = default;

  // The sums of the lines `filter` selects, per UTC period of `resolution`
  // and group, ordered by (start, team, cluster, namespace, workload, model,
  // line_kind) bytewise. A window that starts and ends on UTC days (months)
  // is read from the daily (monthly) rollup where `resolution` allows.
  virtual absl::StatusOr<std::vector<ChargebackSum>> Lines(const ChargebackFilter& filter,
                                                           const ChargebackGroupBy& group_by,
                                                           ChargebackResolution resolution) const = 0;

  // About how many stored lines (hourly or rolled up) Lines reads for the
  // same arguments, known before it runs: the query planner's estimate in
  // PostgreSQL. What the API weighs a read by (services/api/heavy_reads.h).
  virtual absl::StatusOr<int64_t> RowsRead(const ChargebackFilter& filter, const ChargebackGroupBy& group_by,
                                           ChargebackResolution resolution) const = 0;

  // The sums of the devices held that `filter` selects, per (cluster, model,
  // node) or per device, ordered by (cluster, model, node, device) bytewise,
  // and the clusters of the filter not kept over the whole window. A
  // window's whole UTC days are read from the daily rollup. A device nobody
  // held has no sum; INVALID_ARGUMENT for a window not of whole hours or
  // with its end before its start.
  virtual absl::StatusOr<DeviceUse> DevicesHeld(const DeviceUseFilter& filter) const = 0;

  // The over-held spans of `cluster` starting in [start, end), by (from, device).
  virtual absl::StatusOr<std::vector<OverHeldRecord>> OverHeld(const std::string& cluster, absl::Time start,
                                                               absl::Time end) const = 0;
};

// Shared by the implementations.
// Whether `t` is a whole UTC hour (day, month).
bool IsWholeHour(absl::Time t);
bool IsWholeDay(absl::Time t);
bool IsWholeMonth(absl::Time t);
// The start of the UTC day (month) holding `t`.
absl::Time DayStart(absl::Time t);
absl::Time MonthStart(absl::Time t);
// OK when `hours` may replace the hours [start, end) of `cluster`.
absl::Status CheckReplacement(const std::string& cluster, absl::Time start, absl::Time end,
                              const ChargebackHours& hours);
// OK when DevicesHeld may read `filter`.
absl::Status CheckDeviceUseFilter(const DeviceUseFilter& filter);
// OK when LeaseRecompute may lease with these arguments.
absl::Status CheckLease(const std::string& cluster, int limit, const std::string& holder, absl::Duration lease);
// OK when `filter`'s window is one Lines can read (start <= end).
absl::Status CheckWindow(const ChargebackFilter& filter);
// Which table Lines reads: hourly, daily or monthly lines.
enum class ChargebackSource { kHourly, kDaily, kMonthly };
ChargebackSource SourceFor(const ChargebackFilter& filter, ChargebackResolution resolution);
// `sum` + `add` into `sum`, or OUT_OF_RANGE naming `what`.
absl::Status AddChecked(int64_t add, int64_t* sum, const char* what);

}  // namespace fleetcap::store

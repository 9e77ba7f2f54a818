#pragma once
// Waste and efficiency as the optimizer's waste pass computes them
// (docs/insights.md, "Waste" and "Efficiency"; migration 0039): the pieces
// of idle runs, one per pod and UTC hour of a run, each workload's held,
// observed and active device time per cluster and hour, the pass's progress
// per cluster and the hours marked to compute again. The records mirror the
// waste engine's (optimizer/insights/waste_facts.h); the optimizer maps
// between them. The pass writes; the API reads a window's pieces and sums.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace fleetcap::store {

// The part of an idle run inside one hour: [start, end) within [hour, hour + 1h).
struct IdlePieceRecord {
  std::string cluster;
  absl::Time hour;
  std::string pod_uid;
  absl::Time start;
  absl::Time end;
  std::string namespace_name;
  std::string team;
  std::string workload;
  std::string model;
  int64_t devices_milli = 0;
  int64_t wasted_milli_seconds = 0;
  int64_t wasted_cost_micro = 0;
  int64_t activity_milli_seconds = 0;
  int64_t sm_milli_seconds = 0;

  bool operator==(const IdlePieceRecord& o) const;
};

// A workload's device time in one cluster and hour; summed over a window by
// WorkloadSums, with `cluster` "" and `hour` the window's start.
struct WorkloadHourRecord {
  std::string cluster;
  absl::Time hour;
  std::string team;
  std::string namespace_name;
  std::string workload;
  int64_t held_milli_seconds = 0;
  int64_t observed_milli_seconds = 0;
  int64_t active_milli_seconds = 0;
  int64_t sm_observed_milli_seconds = 0;
  int64_t both_minutes = 0;
  int64_t both_held_milli_seconds = 0;
  int64_t both_duty_milli_seconds = 0;
  int64_t both_sm_milli_seconds = 0;

  bool operator==(const WorkloadHourRecord& o) const;
};

// A workload's figures over a window: its device time (as WorkloadSums
// gives it) and its waste: idle device time, money, and runs, a run counted
// once however many hours and days of the window it crosses.
struct WorkloadWasteRecord {
  WorkloadHourRecord time;  // `cluster` "", `hour` the window's start
  int64_t wasted_milli_seconds = 0;
  int64_t wasted_cost_micro = 0;
  int64_t run_count = 0;

  bool operator==(const WorkloadWasteRecord& o) const;
};

// A workload, by the keys a piece and a workload hour carry.
struct WasteWorkload {
  std::string team;
  std::string namespace_name;
  std::string workload;
};

// An hour marked to compute again, and when it was marked last.
struct WasteMark {
  absl::Time hour;
  absl::Time noted_at;
};

// Which rows to read: hours in [start, end), whole hours; an empty selector matches all.
struct WasteFilter {
  absl::Time start;
  absl::Time end;
  std::vector<std::string> teams;  // any of these
  std::string namespace_name;
  std::string cluster;
  // Above 0, Pieces reads at most this many and one more: enough for a
  // caller to refuse an answer too large without holding all of it.
  int64_t max_pieces = 0;
  // Pieces only: of any of these workloads; empty selects every workload.
  std::vector<WasteWorkload> workloads = {};
};

// The rows replacing whole hours of one cluster, given a part at a time, so
// a writer holds one part of a cluster's rows at once: nothing changes
// before Commit, then everything at once; dropped uncommitted (or after a
// failed Add), nothing changes.
class WasteHoursReplacement {
 public:
  virtual ~WasteHoursReplacement() = default;

  // More of the rows. INVALID_ARGUMENT naming the row for one of another
  // cluster or outside the hours, a piece not inside its hour, a key
  // repeated in `pieces` or in `hours`, or a figure out of its range; a key
  // given by an earlier part too is an error here or at Commit.
  virtual absl::Status Add(const std::vector<IdlePieceRecord>& pieces,
                           const std::vector<WorkloadHourRecord>& hours) = 0;
  // Every piece and workload hour of the cluster in the hours becomes the rows added.
  virtual absl::Status Commit() = 0;
};

class InsightWasteRepository {
 public:
  virtual ~InsightWasteRepository() = default;

  // Begins replacing every piece and workload hour of `cluster` in the whole
  // hours [start, end) (INVALID_ARGUMENT otherwise). PostgreSQL keeps a
  // connection, and the cluster's lock, until the replacement is committed
  // or dropped.
  virtual absl::StatusOr<std::unique_ptr<WasteHoursReplacement>> BeginReplaceHours(const std::string& cluster,
                                                                                   absl::Time start,
                                                                                   absl::Time end) = 0;
  // The same in one part: these rows replace the hours, all or nothing.
  absl::Status ReplaceHours(const std::string& cluster, absl::Time start, absl::Time end,
                            const std::vector<IdlePieceRecord>& pieces, const std::vector<WorkloadHourRecord>& hours);

  // Every hour of `cluster` before the watermark is computed; nullopt before
  // the first. Advancing moves it to `through` (a whole hour), never backwards.
  virtual absl::StatusOr<std::optional<absl::Time>> Watermark(const std::string& cluster) = 0;
  virtual absl::Status AdvanceWatermark(const std::string& cluster, absl::Time through) = 0;

  // Marks whole `hours` of `cluster` (PostgreSQL also marks every hour the
  // chargeback is marked to compute again); marking again moves `noted_at`.
  virtual absl::Status MarkHours(const std::string& cluster, const std::vector<absl::Time>& hours,
                                 absl::Time noted_at) = 0;
  // Up to `limit` marks of `cluster` before `before`, oldest hour first.
  virtual absl::StatusOr<std::vector<WasteMark>> Marks(const std::string& cluster, absl::Time before, int limit) = 0;
  // Removes the marks still as they were read: one marked again since stays.
  virtual absl::Status ClearMarks(const std::string& cluster, const std::vector<WasteMark>& marks) = 0;

  // The pieces `filter` selects, by (cluster, pod_uid, start).
  virtual absl::StatusOr<std::vector<IdlePieceRecord>> Pieces(const WasteFilter& filter) const = 0;
  // The workload hours `filter` selects summed per (team, namespace,
  // workload) over clusters and hours, in that order; OUT_OF_RANGE past int64.
  virtual absl::StatusOr<std::vector<WorkloadHourRecord>> WorkloadSums(const WasteFilter& filter) const = 0;
  // Per (team, namespace, workload), in that order, the figures of the
  // window `filter` selects: what the workload hours and the runs joined from
  // the pieces (insights::JoinRuns) add up to, read from the days of the
  // window's whole UTC days (PostgreSQL: migration 0042) and from the hours of
  // its ragged edges. OUT_OF_RANGE past int64.
  virtual absl::StatusOr<std::vector<WorkloadWasteRecord>> WasteSums(const WasteFilter& filter) const = 0;
};

// Shared by the implementations.
// OK when [start, end) is whole hours in order.
absl::Status CheckWasteHours(absl::Time start, absl::Time end);
// OK when `pieces` and `hours` may be among the rows replacing the hours
// [start, end) of `cluster`.
absl::Status CheckWasteReplacement(const std::string& cluster, absl::Time start, absl::Time end,
                                   const std::vector<IdlePieceRecord>& pieces,
                                   const std::vector<WorkloadHourRecord>& hours);
// OK when `filter`'s window is whole hours, start <= end.
absl::Status CheckWasteFilter(const WasteFilter& filter);
// Whether `filter` selects a row of these keys (its workloads aside).
bool WasteSelects(const WasteFilter& filter, const std::string& cluster, absl::Time hour, const std::string& team,
                  const std::string& namespace_name);

}  // namespace fleetcap::store

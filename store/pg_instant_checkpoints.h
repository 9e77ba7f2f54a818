#pragma once
// Keeps the fleet summary's checkpoints (migration 0036): the summary per
// model and per (namespace, team label) of each cluster every
// `kCheckpointEvery` of its history, from its earliest fact to its horizon
// (or now, if that is earlier), so that the summary at any past instant is
// a checkpoint at most half that away and the changes between
// (store/pg_instant_reads.h). Writers forget the checkpoints their changes
// touch; each call builds the missing ones newest first, each from the
// nearest known summary, a transaction of each cluster in turn, until its
// budget is spent. Run by the optimizer
// after each pass; safe to run from several processes at once (a cluster is
// built under its exclusive advisory lock, taken without waiting: a cluster
// busy elsewhere is left for the next call).

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "common/pg_pool.h"

namespace fleetcap::store {

// A quarter hour: the summary at an instant then reads at most 7.5 minutes
// of changes. A checkpoint is a row a model and a row a (namespace, team)
// holding devices.
inline constexpr absl::Duration kCheckpointEvery = absl::Minutes(15);

struct CheckpointFill {
  int64_t built = 0;          // checkpoints written
  bool complete = true;       // false: the budget ran out before every cluster was done
  int64_t busy_clusters = 0;  // clusters another process was building
};

class PgInstantCheckpoints {
 public:
  // `pool` must outlive this.
  explicit PgInstantCheckpoints(PgPool* pool, absl::Duration every = kCheckpointEvery) : pool_(pool), every_(every) {}

  // Builds missing checkpoints at instants up to the clock's now, for at
  // most `budget` of its time.
  absl::StatusOr<CheckpointFill> Fill(const Clock& clock, absl::Duration budget);

 private:
  PgPool* pool_;
  absl::Duration every_;
};

}  // namespace fleetcap::store

#pragma once
// Moves the per-minute usage to rest (migration 0037): every hour of a
// cluster written to usage_minute is due (usage_hours_to_compact), and once
// it ended two hours ago fleetcap_compact_usage_hour moves its minutes to
// rows by series and hour, a tenth of the bytes. Each call moves the due
// hours newest first, an hour a transaction, until its budget is spent; run
// by the optimizer after each pass. The hours of a store that had minutes
// before migration 0037 are moved over many passes, read from both places
// meanwhile (fleetcap_usage_minutes). Safe to run from several processes at
// once: a cluster's hours are moved under its advisory lock, taken without
// waiting (a cluster busy elsewhere is left for the next call). Then, in
// what is left of the budget, the ended days whose every hour is moved have
// their indexes at rest rebuilt (migration 0046): as the moves grow them
// they are a quarter to a half larger.

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/clock.h"
#include "common/pg_pool.h"

namespace fleetcap::store {

struct UsageCompaction {
  int64_t hours = 0;           // hours moved
  int64_t minutes = 0;         // minute rows moved
  bool complete = true;        // false: the budget ran out with hours still due
  int64_t busy_clusters = 0;   // clusters another process was moving
  int64_t days_reindexed = 0;  // ended days whose indexes at rest were rebuilt
};

class PgUsageCompaction {
 public:
  // `pool` must outlive this.
  explicit PgUsageCompaction(PgPool* pool) : pool_(pool) {}

  // Moves due hours for at most `budget` of the clock's time (an hour begun
  // is finished).
  absl::StatusOr<UsageCompaction> Compact(const Clock& clock, absl::Duration budget);

 private:
  PgPool* pool_;
};

}  // namespace fleetcap::store

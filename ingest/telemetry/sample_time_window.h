#pragma once
// The times a sample may carry, around the receiver's clock. A sample far
// ahead would move its device's closed-through bound past every real sample
// to come (each then dropped as late), and one older than usage_minute's
// retention would be written into a partition that is dropped: both are
// refused where they come in, and counted (`future`, `too_old`).

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "ingest/telemetry/canonical.h"
#include "ingest/telemetry/normaliser.h"

namespace fleetcap::telemetry {

struct SampleTimeWindow {
  absl::Duration ahead = absl::Hours(1);
  absl::Duration behind = absl::Hours(24 * 400);  // usage_minute's retention (store/usage_partitions.h)

  // kFuture or kTooOld for a timestamp outside [now - behind, now + ahead].
  std::optional<DropReason> Check(int64_t ts_ms, absl::Time now) const;
};

// Removes the points of `series` outside `window` at `now`, counting them in
// `drops`; a series left without points is removed. Returns the points removed.
int64_t DropOutsideWindow(const SampleTimeWindow& window, absl::Time now, std::vector<CanonicalSeries>* series,
                          DropCounts* drops);

}  // namespace fleetcap::telemetry

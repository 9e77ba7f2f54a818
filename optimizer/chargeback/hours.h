#pragma once
// Whole UTC hours, as the optimizer schedules them.

#include <vector>

#include "absl/time/time.h"

namespace fleetcap::chargeback {

// The whole hour holding `t` (toward the past).
absl::Time HourOf(absl::Time t);
// The first whole hour at or after `t`.
absl::Time HourAtOrAfter(absl::Time t);
bool IsHour(absl::Time t);

// The end of the newest closed hour at `now`: hour H is closed once
// now >= H + 1h + close_delay (its telemetry minutes have settled).
absl::Time ClosedThrough(absl::Time now, absl::Duration close_delay);

// Consecutive runs of `hours` (whole, ascending, distinct) as windows
// [start, end) of at most `max_hours` hours each.
struct HourWindow {
  absl::Time start;
  absl::Time end;
};
std::vector<HourWindow> ContiguousWindows(const std::vector<absl::Time>& hours, int max_hours);

}  // namespace fleetcap::chargeback

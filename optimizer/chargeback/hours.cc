#include "optimizer/chargeback/hours.h"

#include <cstdint>

namespace fleetcap::chargeback {

absl::Time HourOf(absl::Time t) {
  if (t == absl::InfinitePast() || t == absl::InfiniteFuture()) return t;
  const int64_t s = absl::ToUnixSeconds(t);  // toward the past
  return absl::FromUnixSeconds(s - ((s % 3600) + 3600) % 3600);
}

absl::Time HourAtOrAfter(absl::Time t) {
  const absl::Time hour = HourOf(t);
  return hour < t ? hour + absl::Hours(1) : hour;
}

bool IsHour(absl::Time t) { return HourOf(t) == t; }

absl::Time ClosedThrough(absl::Time now, absl::Duration close_delay) { return HourOf(now - close_delay); }

std::vector<HourWindow> ContiguousWindows(const std::vector<absl::Time>& hours, int max_hours) {
  std::vector<HourWindow> windows;
  for (const absl::Time hour : hours) {
    if (!windows.empty() && windows.back().end == hour &&
        windows.back().end - windows.back().start < absl::Hours(max_hours)) {
      windows.back().end = hour + absl::Hours(1);
    } else {
      windows.push_back({hour, hour + absl::Hours(1)});
    }
  }
  return windows;
}

}  // namespace fleetcap::chargeback

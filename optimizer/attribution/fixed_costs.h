#pragma once
// A fixed monthly cost spread over the hours of its calendar month (UTC)
// exactly: hour i of a month of H hours gets floor((i+1)A/H) - floor(iA/H),
// so the hours of every month add up to the amount A to the micro-unit.

#include <cstdint>

#include "absl/time/time.h"

namespace fleetcap::attribution {

// The part of `micro_per_month` (>= 0) that falls on the hour starting at `hour`.
int64_t MonthlyCostForHour(int64_t micro_per_month, absl::Time hour);

}  // namespace fleetcap::attribution

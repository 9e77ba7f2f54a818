#pragma once
// Finds the times a device's holds add up to more than the whole device:
// inconsistent facts (a missed release, two schedulers), reported with the
// holds that caused them. Times are Unix seconds.

#include <cstdint>
#include <vector>

namespace fleetcap::attribution {

struct HeldInterval {
  int64_t from = 0;
  int64_t to = 0;
  int64_t milli = 0;
  uint32_t hold = 0;  // the caller's index of the hold
};

struct OverHeldSpan {
  int64_t from = 0;
  int64_t to = 0;
  int64_t milli = 0;            // held in total, above 1000
  std::vector<uint32_t> holds;  // in the caller's index order
};

// The spans of one device's holds over 1000 milli-devices, in time order;
// each is a maximal span over which the same holds are held.
std::vector<OverHeldSpan> FindOverHeld(std::vector<HeldInterval> holds);

}  // namespace fleetcap::attribution

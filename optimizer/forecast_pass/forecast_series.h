#pragma once
// The series a forecast run is made of: one per flavor, team and what is
// measured, each a sum of milli-device-seconds per hour of the history.

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace fleetcap::optimizer {

// What a series measures, as stored ("held", "pending", "capacity").
inline constexpr char kHeldSeries[] = "held";
inline constexpr char kPendingSeries[] = "pending";
inline constexpr char kCapacitySeries[] = "capacity";

// One series of a run. `team` "" is the flavor's total.
struct SeriesKey {
  std::string flavor;
  std::string team;
  std::string what;

  // Flavor, then team, then what: the order the run's series are stored in.
  friend bool operator<(const SeriesKey& a, const SeriesKey& b) {
    return std::tie(a.flavor, a.team, a.what) < std::tie(b.flavor, b.team, b.what);
  }
};

// Milli-device-seconds per hour index of the history.
using HourSums = std::vector<int64_t>;

// The sums of each series, `hours` long, created on first use.
class SeriesSums {
 public:
  explicit SeriesSums(int64_t hours) : hours_(hours) {}
  int64_t hours() const { return hours_; }
  void Add(const SeriesKey& key, int64_t hour, int64_t milli_seconds) {
    if (hour < 0 || hour >= hours_ || milli_seconds <= 0) return;
    Ensure(key)[static_cast<size_t>(hour)] += milli_seconds;
  }
  HourSums& Ensure(const SeriesKey& key) {
    auto [it, fresh] = sums_.try_emplace(key);
    if (fresh) it->second.assign(static_cast<size_t>(hours_), 0);
    return it->second;
  }
  const std::map<SeriesKey, HourSums>& sums() const { return sums_; }

 private:
  int64_t hours_;
  std::map<SeriesKey, HourSums> sums_;
};

}  // namespace fleetcap::optimizer

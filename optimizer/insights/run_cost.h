#pragma once
// A run's money: exact to the second at the price in force (a price change
// inside the run splits its time by price), rounded once for the whole run,
// half up, and spread over its hours by largest remainder so the hours add
// up to the run.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "optimizer/attribution/price_schedule.h"
#include "optimizer/insights/waste_facts.h"

namespace fleetcap::insights {

__extension__ typedef __int128 CostNumerator;  // micro-units x 3,600,000

// Milli-devices x seconds x micro per device-hour make micro-units x this.
inline constexpr int64_t kMilliSecondsPerDeviceHour = 1000 * 3600;

class PriceBook {
 public:
  explicit PriceBook(const std::vector<policy::Price>& prices) : prices_(prices) {}
  // micro x kMilliSecondsPerDeviceHour of `milli` of a `model` device in
  // `cluster` held over [from, to) (Unix seconds); time without a price costs nothing.
  CostNumerator Cost(const std::string& cluster, const std::string& model, int64_t milli, int64_t from, int64_t to);

 private:
  const std::vector<policy::Price>& prices_;
  std::map<std::pair<std::string, std::string>, std::vector<attribution::PricePeriod>> timelines_;
};

// Each hour's exact numerator in, each hour's micro-units out: the total is
// the sum rounded half up; each hour gets its floor, and the units left go
// one each to the largest remainders (the earlier hour first on a tie), so
// an hour never gets more than its exact amount rounded up.
std::vector<int64_t> RoundRunOnce(const std::vector<CostNumerator>& hours);

}  // namespace fleetcap::insights

#include <cmath>

#include "absl/strings/str_cat.h"
#include "optimizer/forecast/forecast.h"

namespace fleetcap::forecast {
namespace {

absl::Status CheckCapacity(double capacity, absl::string_view field) {
  if (!std::isfinite(capacity) || capacity < 0) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", capacity, " is not a finite non-negative number"));
  }
  return absl::OkStatus();
}

// The first hour (index) at which `values` exceed the capacity in force then.
std::optional<size_t> FirstHourOver(const std::vector<double>& values, absl::Time start,
                                    const CapacitySchedule& capacity) {
  size_t next_step = 0;
  double current = capacity.initial;
  for (size_t h = 0; h < values.size(); ++h) {
    const absl::Time hour = start + absl::Hours(static_cast<int64_t>(h));
    // An hour is held to the capacity in force at its start; a step in the
    // middle of an hour counts from the next whole hour.
    while (next_step < capacity.steps.size() && capacity.steps[next_step].from <= hour) {
      current = capacity.steps[next_step].capacity;
      ++next_step;
    }
    if (values[h] > current) return h;
  }
  return std::nullopt;
}

std::optional<absl::CivilDay> DayOf(std::optional<size_t> hour, absl::Time start) {
  if (!hour) return std::nullopt;
  return absl::ToCivilDay(start + absl::Hours(static_cast<int64_t>(*hour)), absl::UTCTimeZone());
}

}  // namespace

absl::StatusOr<Exhaustion> FindExhaustion(const Forecast& forecast, const CapacitySchedule& capacity) {
  if (absl::Status s = CheckCapacity(capacity.initial, "capacity.initial"); !s.ok()) return s;
  for (size_t i = 0; i < capacity.steps.size(); ++i) {
    const std::string field = absl::StrCat("capacity.steps[", i, "]");
    if (absl::Status s = CheckCapacity(capacity.steps[i].capacity, field + ".capacity"); !s.ok()) return s;
    if (i > 0 && !(capacity.steps[i - 1].from < capacity.steps[i].from)) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".from: ", absl::FormatTime(capacity.steps[i].from),
                                                     " is not after steps[", i - 1,
                                                     "].from (steps must be in increasing time order)"));
    }
  }
  if (forecast.p50.size() != forecast.p90.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("forecast: p50 has ", forecast.p50.size(), " hours but p90 has ", forecast.p90.size()));
  }
  Exhaustion out;
  out.p50_day = DayOf(FirstHourOver(forecast.p50, forecast.start, capacity), forecast.start);
  out.p90_day = DayOf(FirstHourOver(forecast.p90, forecast.start, capacity), forecast.start);
  return out;
}

}  // namespace fleetcap::forecast

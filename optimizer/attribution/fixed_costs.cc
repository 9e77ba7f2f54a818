#include "optimizer/attribution/fixed_costs.h"

#include "optimizer/attribution/apportion.h"

namespace fleetcap::attribution {

int64_t MonthlyCostForHour(int64_t micro_per_month, absl::Time hour) {
  const absl::TimeZone utc = absl::UTCTimeZone();
  const absl::CivilMonth month(absl::ToCivilHour(hour, utc));
  const absl::Time first = absl::FromCivil(month, utc);
  const absl::Time next = absl::FromCivil(month + 1, utc);
  const Int128 hours = (next - first) / absl::Hours(1);
  const Int128 i = (hour - first) / absl::Hours(1);
  return static_cast<int64_t>((i + 1) * micro_per_month / hours - i * micro_per_month / hours);
}

}  // namespace fleetcap::attribution

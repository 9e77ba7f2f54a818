#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "optimizer/forecast/forecast.h"
#include "optimizer/forecast/series_checks.h"

namespace fleetcap::forecast {

absl::StatusOr<HourlySeries> SumSeries(const std::vector<HourlySeries>& series) {
  if (series.empty()) return absl::InvalidArgumentError("series: empty list, nothing to sum");
  absl::Time start = absl::InfiniteFuture();
  absl::Time end = absl::InfinitePast();
  for (size_t i = 0; i < series.size(); ++i) {
    FLEETCAP_RETURN_IF_ERROR(CheckSeries(series[i], absl::StrCat("series[", i, "]")));
    start = std::min(start, series[i].start);
    end = std::max(end, series[i].start + absl::Hours(static_cast<int64_t>(series[i].values.size())));
  }
  const int64_t hours = (end - start) / absl::Hours(1);
  if (hours > kMaxSeriesPoints) {
    return absl::InvalidArgumentError(
        absl::StrCat("series: together they span ", hours, " hours, more than the limit of ", kMaxSeriesPoints));
  }
  HourlySeries sum{start, std::vector<double>(static_cast<size_t>(hours), 0.0)};
  for (const HourlySeries& s : series) {
    const size_t offset = static_cast<size_t>((s.start - start) / absl::Hours(1));
    for (size_t i = 0; i < s.values.size(); ++i) sum.values[offset + i] += s.values[i];
  }
  return sum;
}

}  // namespace fleetcap::forecast

#include "optimizer/forecast/series_checks.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace fleetcap::forecast {

absl::Status CheckSeries(const HourlySeries& series, absl::string_view name) {
  if (series.start == absl::InfiniteFuture() || series.start == absl::InfinitePast() ||
      series.start != absl::FromUnixSeconds(absl::ToUnixSeconds(series.start)) ||
      absl::ToUnixSeconds(series.start) % 3600 != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ".start: ", absl::FormatTime(series.start), " is not a whole UTC hour"));
  }
  if (series.values.empty()) return absl::InvalidArgumentError(absl::StrCat(name, ".values: empty"));
  if (series.values.size() > static_cast<size_t>(kMaxSeriesPoints)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ".values: ", series.values.size(), " hours, more than the limit of ", kMaxSeriesPoints));
  }
  for (size_t i = 0; i < series.values.size(); ++i) {
    const double v = series.values[i];
    if (!std::isfinite(v) || v < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(name, ".values[", i, "]: ", v, " is not a finite non-negative number"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOptions(const ForecastOptions& options) {
  if (options.horizon_hours < 1 || options.horizon_hours > kMaxHorizonHours) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.horizon_hours: ", options.horizon_hours, " is outside 1..", kMaxHorizonHours));
  }
  // A season longer than half the longest series could never be used.
  if (options.season_points < 0 || options.season_points > kMaxSeriesPoints / 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.season_points: ", options.season_points, " is outside 0..", kMaxSeriesPoints / 2));
  }
  return absl::OkStatus();
}

}  // namespace fleetcap::forecast

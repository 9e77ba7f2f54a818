#include "ingest/telemetry/sample_time_window.h"

#include <algorithm>

namespace fleetcap::telemetry {

std::optional<DropReason> SampleTimeWindow::Check(int64_t ts_ms, absl::Time now) const {
  // In milliseconds, saturating: a window of InfiniteDuration lets all pass.
  const absl::Time t = absl::FromUnixMillis(ts_ms);
  if (t > now + ahead) return DropReason::kFuture;
  if (t < now - behind) return DropReason::kTooOld;
  return std::nullopt;
}

int64_t DropOutsideWindow(const SampleTimeWindow& window, absl::Time now, std::vector<CanonicalSeries>* series,
                          DropCounts* drops) {
  int64_t removed = 0;
  for (CanonicalSeries& s : *series) {
    auto outside = [&](const Point& p) {
      const std::optional<DropReason> reason = window.Check(p.ts_ms, now);
      if (reason) drops->Add(*reason);
      return reason.has_value();
    };
    const auto kept_end = std::remove_if(s.points.begin(), s.points.end(), outside);
    removed += s.points.end() - kept_end;
    s.points.erase(kept_end, s.points.end());
  }
  series->erase(
      std::remove_if(series->begin(), series->end(), [](const CanonicalSeries& s) { return s.points.empty(); }),
      series->end());
  return removed;
}

}  // namespace fleetcap::telemetry

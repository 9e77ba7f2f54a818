#include "optimizer/whatif/held_projection.h"

#include <algorithm>

namespace fleetcap::whatif {

std::optional<HeldProjection> RecentAverage::Project(const std::vector<int64_t>& history, int64_t horizon_hours) const {
  const size_t n = std::min<size_t>(history.size(), kRecentAverageHours);
  __extension__ __int128 sum = 0;
  for (size_t i = history.size() - n; i < history.size(); ++i) sum += history[i];
  const int64_t mean = n == 0 ? 0 : static_cast<int64_t>(sum / static_cast<int64_t>(n));
  HeldProjection p;
  p.p50_milli.assign(static_cast<size_t>(std::max<int64_t>(horizon_hours, 0)), mean);
  p.p90_milli = p.p50_milli;
  p.model = kRecentAverageModel;
  return p;
}

HeldProjection ProjectHeld(const HeldForecaster* forecaster, const std::vector<int64_t>& history,
                           int64_t horizon_hours) {
  if (forecaster != nullptr) {
    if (auto p = forecaster->Project(history, horizon_hours);
        p && static_cast<int64_t>(p->p50_milli.size()) >= horizon_hours &&
        static_cast<int64_t>(p->p90_milli.size()) >= horizon_hours) {
      return *std::move(p);
    }
  }
  return *RecentAverage().Project(history, horizon_hours);
}

}  // namespace fleetcap::whatif

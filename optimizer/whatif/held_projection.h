#pragma once
// How a scenario projects held device time forward: the forecast engine
// where it can fit a series, else the recent average (docs/whatif.md,
// "Projections"). A projection says which model made it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fleetcap::whatif {

// Hourly held milli-devices ahead, index 0 the hour right after the history.
struct HeldProjection {
  std::vector<int64_t> p50_milli;
  std::vector<int64_t> p90_milli;
  std::string model;  // e.g. "recent_average", or the forecast engine's model name
};

class HeldForecaster {
 public:
  virtual ~HeldForecaster() = default;
  // `history`: hourly held milli-devices, oldest first, ending at the
  // history's end. Nullopt when the model cannot fit it (too short).
  virtual std::optional<HeldProjection> Project(const std::vector<int64_t>& history, int64_t horizon_hours) const = 0;
};

// The fallback: p50 and p90 both the mean of the last `window_hours` hours
// (all of them when fewer), rounded down; an empty history projects 0.
inline constexpr int64_t kRecentAverageHours = 7 * 24;
class RecentAverage final : public HeldForecaster {
 public:
  std::optional<HeldProjection> Project(const std::vector<int64_t>& history, int64_t horizon_hours) const override;
};

inline constexpr const char* kRecentAverageModel = "recent_average";

// `forecaster`'s projection when it gives one, else RecentAverage's.
HeldProjection ProjectHeld(const HeldForecaster* forecaster, const std::vector<int64_t>& history,
                           int64_t horizon_hours);

}  // namespace fleetcap::whatif

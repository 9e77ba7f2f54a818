#pragma once
// The forecast engine (optimizer/forecast/forecast.h) as a scenario's
// HeldForecaster: the seasonal model its length allows (Holt-Winters, or
// its documented fallbacks), p50 and p90 in milli-devices, named by the
// engine's model name. An empty series, or one the engine refuses, gives no
// projection, and the scenario takes the recent average for it.

#include "optimizer/whatif/held_projection.h"

namespace fleetcap::whatif {

class EngineForecaster final : public HeldForecaster {
 public:
  std::optional<HeldProjection> Project(const std::vector<int64_t>& history, int64_t horizon_hours) const override;
};

}  // namespace fleetcap::whatif

#pragma once
// A synthetic fleet with openb's shapes, for the attribution benchmarks
// (attribution_bench, attribution_sql_bench): nodes of 8 GPUs of a few
// models in 4 clusters; whole devices and 1/2 and 1/4 shares held at random
// times, some overlapping, as over-held facts do; 20 teams, team t-K owning
// the namespaces ns-K-0 .. ns-K-9. Deterministic for a seed.

#include <cstdint>
#include <string>
#include <vector>

#include "optimizer/attribution/attribution_facts.h"
#include "optimizer/attribution/team_schedule.h"

namespace fleetcap::bench {

struct FleetShape {
  int64_t devices = 1000;
  int64_t pods = 10000;
  int64_t days = 30;
  int64_t seed = 1;
  std::string basis = "request";  // with `usage` or `max`, every minute of every hold has a reading
};

// Request basis, idle shared per cluster unless the caller changes the options.
attribution::AttributionInput SyntheticFleet(const FleetShape& shape);

// The fleet's window starts here, and these are its prices (one per model, every cluster).
absl::Time SyntheticFleetStart();
std::vector<policy::Price> SyntheticPrices();

// Team t-K owns the namespaces ns-K-*: one rule per team.
class SyntheticTeams : public attribution::TeamSchedule {
 public:
  std::vector<attribution::TeamSpan> TeamsDuring(const policy::PodEvidence& pod, absl::Time from,
                                                 absl::Time to) const override;
};

}  // namespace fleetcap::bench

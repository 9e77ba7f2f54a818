#pragma once
// The chargeback prices idle per model and cluster (docs/attribution.md);
// it keeps no node or device. An asset row of a node or a device is given
// its part of its model and cluster's idle cost in proportion to its idle
// device time, by largest remainder (attribution::Apportion, the engine's one
// way to split money), so the parts add up to the micro-unit.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fleetcap/v1/fleet.pb.h"

namespace fleetcap::api {

// (model, cluster) -> the idle cost of its lines over the window, micro-units.
using IdleCostByModelCluster = std::map<std::pair<std::string, std::string>, int64_t>;

// Sets `idle_cost_micro` of every row (each with its model and cluster) to
// its share of `costs` for its model and cluster, weighed by
// `idle_milli_seconds` (evenly when none of them idled); rows whose model
// and cluster have no cost there are left unset: unknown. `rows` must be
// every group of the model and cluster, not a page of them, for the shares
// to add up.
void SpreadIdleCost(const IdleCostByModelCluster& costs, std::vector<v1::AssetRow>& rows);

}  // namespace fleetcap::api

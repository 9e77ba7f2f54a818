#include "services/api/fleet/idle_cost_spread.h"

#include "optimizer/attribution/apportion.h"

namespace fleetcap::api {

void SpreadIdleCost(const IdleCostByModelCluster& costs, std::vector<v1::AssetRow>& rows) {
  std::map<std::pair<std::string, std::string>, std::vector<v1::AssetRow*>> by_model_cluster;
  for (v1::AssetRow& row : rows) by_model_cluster[{row.model(), row.cluster()}].push_back(&row);
  for (auto& [key, group] : by_model_cluster) {
    const auto cost = costs.find(key);
    if (cost == costs.end()) continue;
    std::vector<attribution::Int128> weights;
    for (const v1::AssetRow* row : group) weights.push_back(row->idle_milli_seconds());
    // Apportion splits what is not negative; a credit is split as its opposite.
    const bool credit = cost->second < 0;
    const attribution::Int128 total = credit ? -attribution::Int128{cost->second} : attribution::Int128{cost->second};
    std::vector<attribution::Int128> parts;
    attribution::Apportion(total, weights, &parts);
    for (size_t i = 0; i < group.size(); ++i) {
      group[i]->set_idle_cost_micro(static_cast<int64_t>(credit ? -parts[i] : parts[i]));
    }
  }
}

}  // namespace fleetcap::api

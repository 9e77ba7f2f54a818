#include "services/api/allocation/flavor_node_labels.h"

#include "common/status_macros.h"
#include "services/exports/scheduler_export.h"

namespace fleetcap::api {

absl::StatusOr<FlavorLabels> SharedFlavorNodeLabels(const policy::PolicyDocument& policy,
                                                    const std::set<std::string>& flavors,
                                                    store::InventoryReader& inventory) {
  FlavorLabels labels;
  for (const policy::Flavor& flavor : policy.flavors) {
    if (flavors.count(flavor.name) == 0) continue;
    FLEETCAP_ASSIGN_OR_RETURN(auto shared, inventory.SharedNodeLabels(flavor.model, flavor.pool, flavor.cluster));
    if (!shared.empty()) labels[flavor.name] = std::move(shared);
  }
  return labels;
}

absl::StatusOr<policy::PolicyDocument> PolicyOfSet(const v1::RecommendationSet& set,
                                                   store::PolicyRepository& policies) {
  FLEETCAP_ASSIGN_OR_RETURN(const store::PolicyVersionRecord policy,
                            set.policy_version() == 0 ? policies.Active() : policies.Get(set.policy_version()));
  return exports::PolicyForExport(policy.document, set.policy_version());
}

void SetFlavorNodeLabels(const FlavorLabels& labels, v1::RecommendationSet& set) {
  set.clear_flavor_node_labels();
  for (const auto& [flavor, flavor_labels] : labels) {
    v1::FlavorNodeLabels* out = set.add_flavor_node_labels();
    out->set_flavor(flavor);
    out->mutable_labels()->insert(flavor_labels.begin(), flavor_labels.end());
  }
}

}  // namespace fleetcap::api

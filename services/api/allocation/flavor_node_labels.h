#pragma once
// The node labels a recommendation set's flavors select their nodes by, read
// once for both the set the API serves (RecommendationSet.flavor_node_labels,
// which `fleetcapctl recommendations --format kueue` writes) and the API's own
// manifests (recommendation_manifests.h), so that both give the same bytes.

#include <map>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "fleetcap/v1/allocation.pb.h"
#include "policy/policy_document.h"
#include "store/control_repositories.h"
#include "store/inventory_reader.h"

namespace fleetcap::api {

// flavor -> label key -> value.
using FlavorLabels = std::map<std::string, std::map<std::string, std::string>>;

// For each of `flavors` that `policy` defines, the labels every node of its
// model (and pool) shares in the inventory, among the clusters its `cluster`
// pattern covers (InventoryReader::SharedNodeLabels); a flavor none is known
// for is absent.
absl::StatusOr<FlavorLabels> SharedFlavorNodeLabels(const policy::PolicyDocument& policy,
                                                    const std::set<std::string>& flavors,
                                                    store::InventoryReader& inventory);

// The policy `set` was computed under, parsed for the exports: the version
// its run applied, or the active one for an offline solve (version 0).
absl::StatusOr<policy::PolicyDocument> PolicyOfSet(const v1::RecommendationSet& set, store::PolicyRepository& policies);

// Replaces the set's flavor_node_labels with `labels`, ordered by flavor.
void SetFlavorNodeLabels(const FlavorLabels& labels, v1::RecommendationSet& set);

}  // namespace fleetcap::api

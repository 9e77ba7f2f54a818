#pragma once
// `fleetcapctl recommendations --format kueue|volcano`: a RecommendationSet
// from the API turned into scheduler objects (kueue_manifests.h,
// volcano_manifests.h) under the policy the set was computed with. Pure.

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fleetcap/v1/allocation.pb.h"
#include "optimizer/allocation/recommendation.h"
#include "policy/policy_document.h"

namespace fleetcap::exports {

enum class SchedulerFormat { kKueue, kVolcano };

struct SchedulerExportOptions {
  // Kueue: flavor -> the node labels its nodes share (KueueOptions::node_labels).
  std::map<std::string, std::map<std::string, std::string>> node_labels;
  std::string pool_label;                               // Kueue: the node label of a flavor's pool
  std::map<std::string, std::string> flavor_resources;  // flavor -> extended resource
  bool queues_only = false;                             // a team's view (KueueOptions::queues_only)
};

// The rows the exports read, one per recommendation of `set`, in its order.
std::vector<allocation::Recommendation> RecommendationRows(const v1::RecommendationSet& set);

// The node labels the set carries per flavor (RecommendationSet.flavor_node_labels),
// as SchedulerExportOptions::node_labels takes them.
std::map<std::string, std::map<std::string, std::string>> FlavorNodeLabelsOf(const v1::RecommendationSet& set);

// "FLAVOR=RESOURCE,..." -> the map; INVALID_ARGUMENT naming --flavor-resource
// and the entry for one without `=`, with an empty side, or repeating a flavor.
absl::StatusOr<std::map<std::string, std::string>> ParseFlavorResources(const std::string& list);

// The manifests of `set` (YAML documents separated by `---`); the exports'
// errors name the team and flavor.
absl::StatusOr<std::string> SchedulerManifests(const v1::RecommendationSet& set, const policy::PolicyDocument& policy,
                                               SchedulerFormat format, const SchedulerExportOptions& options);

}  // namespace fleetcap::exports

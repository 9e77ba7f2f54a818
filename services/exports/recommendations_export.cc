#include "services/exports/recommendations_export.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "services/exports/kueue_manifests.h"
#include "services/exports/recommendation_set.h"
#include "services/exports/volcano_manifests.h"

namespace fleetcap::exports {

std::vector<allocation::Recommendation> RecommendationRows(const v1::RecommendationSet& set) {
  std::vector<allocation::Recommendation> rows;
  rows.reserve(static_cast<size_t>(set.recommendations_size()));
  for (const v1::Recommendation& r : set.recommendations()) rows.push_back(RecommendationOf(r));
  return rows;
}

std::map<std::string, std::map<std::string, std::string>> FlavorNodeLabelsOf(const v1::RecommendationSet& set) {
  std::map<std::string, std::map<std::string, std::string>> labels;
  for (const v1::FlavorNodeLabels& flavor : set.flavor_node_labels()) {
    labels[flavor.flavor()].insert(flavor.labels().begin(), flavor.labels().end());
  }
  return labels;
}

absl::StatusOr<std::map<std::string, std::string>> ParseFlavorResources(const std::string& list) {
  std::map<std::string, std::string> resources;
  for (const std::string& entry : std::vector<std::string>(absl::StrSplit(list, ',', absl::SkipEmpty()))) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == entry.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "--flavor-resource: \"", entry, "\" is not FLAVOR=RESOURCE (e.g. a100-mig=nvidia.com/mig-3g.40gb)"));
    }
    if (!resources.emplace(entry.substr(0, eq), entry.substr(eq + 1)).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("--flavor-resource: flavor \"", entry.substr(0, eq), "\" is given twice"));
    }
  }
  return resources;
}

absl::StatusOr<std::string> SchedulerManifests(const v1::RecommendationSet& set, const policy::PolicyDocument& policy,
                                               SchedulerFormat format, const SchedulerExportOptions& options) {
  const std::vector<allocation::Recommendation> rows = RecommendationRows(set);
  if (format == SchedulerFormat::kVolcano) {
    VolcanoOptions volcano;
    volcano.resources = options.flavor_resources;
    return VolcanoManifests(rows, policy, volcano);
  }
  KueueOptions kueue;
  kueue.node_labels = options.node_labels;
  kueue.pool_label = options.pool_label;
  kueue.resources = options.flavor_resources;
  kueue.queues_only = options.queues_only;
  return KueueManifests(rows, policy, kueue);
}

}  // namespace fleetcap::exports

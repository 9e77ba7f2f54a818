#pragma once
// `GET /v1/recommendations/manifests?format=kueue|volcano[&team=]`: the newest
// run's recommendations, as the caller may read them (RecommendationsQuery),
// turned into scheduler objects under the policy version the run used, by
// the same code and with the same defaults as `fleetcapctl recommendations
// --format kueue|volcano` (services/ctl/recommendations_export.h), so both
// give the same bytes. A team token's Kueue manifests are its ClusterQueues
// only (KueueOptions::queues_only): no ResourceFlavor or Cohort, whose
// quotas are the fleet's. Each ResourceFlavor selects its nodes by the labels
// every node of its model (and pool) carries in the inventory, which the set
// carries (RecommendationsQuery::AddNodeLabels, flavor_node_labels.h).

#include <string>

#include "absl/status/statusor.h"
#include "services/api/allocation/recommendations_query.h"
#include "services/api/auth.h"
#include "services/api/http_json.h"
#include "store/control_repositories.h"

namespace fleetcap::api {

class RecommendationManifests {
 public:
  // Both must outlive this and be thread-safe.
  RecommendationManifests(const RecommendationsQuery* query, store::PolicyRepository* policies)
      : query_(query), policies_(policies) {}

  // The YAML documents; INVALID_ARGUMENT naming `format` or `team`, and the
  // errors of the query (PERMISSION_DENIED, NOT_FOUND before the first run).
  absl::StatusOr<std::string> Run(const Scope& scope, const HttpQuery& query) const;

 private:
  const RecommendationsQuery* query_;
  store::PolicyRepository* policies_;
};

}  // namespace fleetcap::api

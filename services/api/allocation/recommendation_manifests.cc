#include "services/api/allocation/recommendation_manifests.h"

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "services/api/allocation/flavor_node_labels.h"
#include "services/exports/recommendations_export.h"
#include "services/exports/scheduler_export.h"

namespace fleetcap::api {

absl::StatusOr<std::string> RecommendationManifests::Run(const Scope& scope, const HttpQuery& query) const {
  QueryMapping mapping;
  mapping.explicit_parameters = {"format"};
  FLEETCAP_ASSIGN_OR_RETURN(const v1::GetRecommendationsRequest request,
                            RecommendationsRequestFromQuery(query, mapping));
  const std::string* format = QueryValue(query, "format");
  if (format == nullptr) return absl::InvalidArgumentError("format: missing; give kueue or volcano");
  exports::SchedulerFormat scheduler;
  if (*format == "kueue") {
    scheduler = exports::SchedulerFormat::kKueue;
  } else if (*format == "volcano") {
    scheduler = exports::SchedulerFormat::kVolcano;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("format: \"", format->substr(0, 64), "\" is not kueue or volcano"));
  }
  FLEETCAP_ASSIGN_OR_RETURN(const v1::RecommendationSet set, query_->Run(scope, request));
  FLEETCAP_ASSIGN_OR_RETURN(const auto document, PolicyOfSet(set, *policies_));
  // A team token gets only the objects that are its own: the Cohorts above
  // its queues carry the fleet's and other teams' figures. (Volcano's Queues
  // are one per team already, and the set holds only the team's subtree.)
  exports::SchedulerExportOptions options;
  options.queues_only = scope.role == Role::kTeam;
  // The node labels the set carries, as `fleetcapctl recommendations` reads them.
  if (scheduler == exports::SchedulerFormat::kKueue) options.node_labels = exports::FlavorNodeLabelsOf(set);
  return exports::SchedulerManifests(set, document, scheduler, options);
}

}  // namespace fleetcap::api

#include "services/api/team_attribution.h"

namespace fleetcap::api {

TeamAttribution::TeamAttribution(store::TeamFactsRepository* facts) : directory_(facts) {}

absl::StatusOr<std::map<std::string, int64_t>> TeamAttribution::HeldByTeamAt(const std::string& cluster, absl::Time at,
                                                                             int32_t up_to) {
  return directory_.HeldByTeamAt(cluster, at, up_to);
}

absl::StatusOr<std::vector<std::string>> TeamAttribution::TeamsOfPodsAt(const std::vector<store::PodTeamEvidence>& pods,
                                                                        absl::Time at, int32_t up_to) {
  return directory_.TeamsOfPodsAt(pods, at, up_to);
}

absl::StatusOr<std::set<std::string>> TeamAttribution::TeamsOfNamespace(const std::string& cluster,
                                                                        const std::string& namespace_name,
                                                                        absl::Time start, absl::Time end,
                                                                        int32_t up_to) {
  return directory_.TeamsOfNamespace(cluster, namespace_name, start, end, up_to);
}

}  // namespace fleetcap::api

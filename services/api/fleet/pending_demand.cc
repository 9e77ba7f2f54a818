#include "services/api/fleet/pending_demand.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "proto_time.h"
#include "services/api/query_message.h"

namespace fleetcap::api {

absl::StatusOr<v1::PendingDemand> PendingDemandQuery::Run(const Scope& scope,
                                                          const v1::ListPendingDemandRequest& request) const {
  if (request.cluster().size() > 253) {
    return absl::InvalidArgumentError(
        absl::StrCat("cluster: ", request.cluster().size(), " bytes, more than a name (253)"));
  }
  const absl::Time now = clock_->Now();
  FLEETCAP_ASSIGN_OR_RETURN(auto records, demand_->PendingAt(now, max_pods_));
  std::vector<store::PendingPodRecord> selected;
  std::vector<store::PodTeamEvidence> evidence;
  for (auto& record : records) {
    if (!request.cluster().empty() && record.cluster != request.cluster()) continue;
    evidence.push_back({record.cluster, record.namespace_name, record.team_label, record.requested_milli});
    selected.push_back(std::move(record));
  }
  FLEETCAP_ASSIGN_OR_RETURN(const auto teams, teams_->TeamsOfPodsAt(evidence, now, PolicyVersionOf(scope)));
  v1::PendingDemand answer;
  int64_t requested = 0;
  for (size_t i = 0; i < selected.size(); ++i) {
    // A team token sees its own subtree's pods and nothing of anyone else's.
    if (scope.role == Role::kTeam && !scope.Covers(teams[i])) continue;
    const store::PendingPodRecord& record = selected[i];
    v1::PendingPod* pod = answer.add_pods();
    pod->set_cluster(record.cluster);
    pod->set_namespace_(record.namespace_name);
    pod->set_pod(record.pod_name.empty() ? record.pod_uid : record.pod_name);
    pod->set_team(teams[i]);
    pod->set_model(record.model);
    pod->set_requested_milli(record.requested_milli);
    *pod->mutable_pending_since() = ToProtoTimestamp(record.pending_from);
    if (__builtin_add_overflow(requested, record.requested_milli, &requested)) {
      return absl::OutOfRangeError("requested_milli: the sum does not fit in a signed 64-bit integer");
    }
  }
  answer.set_requested_milli(requested);
  return answer;
}

absl::StatusOr<v1::ListPendingDemandRequest> PendingDemandRequestFromQuery(const HttpQuery& query) {
  v1::ListPendingDemandRequest request;
  FLEETCAP_RETURN_IF_ERROR(QueryToMessage(query, &request));
  return request;
}

}  // namespace fleetcap::api
